package io.sam3stream.schemas.serde;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The configuration keys our serializers and deserializers read when Kafka configures them by class name. The
 * keys that Confluent's serdes also have are spelled as Confluent spells them, so one client configuration
 * serves both.
 */
public final class AvroSerdeConfig {

    /** Base URL of the Confluent-API schema registry (one URL). Required. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";

    /** {@code user:password} sent as HTTP basic credentials. Optional. */
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";

    /** Milliseconds allowed for connecting to the registry and for each request. Optional. */
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";

    /**
     * Whether the serializer registers the record's schema (true, the default) or only looks up the id of a schema
     * registered beforehand (false).
     */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";

    /** Generated class (or its name) that a specific deserializer of record values reads into. */
    public static final String SPECIFIC_AVRO_VALUE_TYPE = "specific.avro.value.type";

    /** Generated class (or its name) that a specific deserializer of record keys reads into. */
    public static final String SPECIFIC_AVRO_KEY_TYPE = "specific.avro.key.type";

    private AvroSerdeConfig() {
    }

    /** A registry client from {@link #SCHEMA_REGISTRY_URL}, {@link #BASIC_AUTH_USER_INFO}, {@link #REQUEST_TIMEOUT_MS}. */
    public static SchemaRegistryClient registryClient(Map<String, ?> configs) {
        Object url = configs.get(SCHEMA_REGISTRY_URL);
        if (url == null || url.toString().isBlank()) {
            throw new ConfigException(SCHEMA_REGISTRY_URL + " is required");
        }
        if (url.toString().contains(",")) {
            throw new ConfigException(SCHEMA_REGISTRY_URL, url, "give exactly one registry URL");
        }
        SchemaRegistryClient.Builder builder = SchemaRegistryClient.builder(URI.create(url.toString().trim()));
        Object timeout = configs.get(REQUEST_TIMEOUT_MS);
        if (timeout != null) {
            builder.timeout(Duration.ofMillis(parseLong(REQUEST_TIMEOUT_MS, timeout)));
        }
        Object userInfo = configs.get(BASIC_AUTH_USER_INFO);
        if (userInfo != null && !userInfo.toString().isEmpty()) {
            String text = userInfo.toString();
            int colon = text.indexOf(':');
            if (colon < 0) {
                throw new ConfigException(BASIC_AUTH_USER_INFO + " must be user:password");
            }
            builder.basicAuth(text.substring(0, colon), text.substring(colon + 1));
        }
        return builder.build();
    }

    /** {@link #AUTO_REGISTER_SCHEMAS}, true unless set. */
    public static boolean autoRegister(Map<String, ?> configs) {
        Object value = configs.get(AUTO_REGISTER_SCHEMAS);
        return value == null || Boolean.parseBoolean(value.toString());
    }

    /** The generated class configured under {@code key}, which must implement {@code expected}. */
    static <T> Class<? extends T> recordClass(Map<String, ?> configs, String key, Class<T> expected) {
        Object value = configs.get(key);
        if (value == null) {
            throw new ConfigException(key + " is required by a specific Avro deserializer");
        }
        Class<?> type;
        if (value instanceof Class<?> given) {
            type = given;
        } else {
            try {
                type = Class.forName(value.toString().trim(), true, Thread.currentThread().getContextClassLoader());
            } catch (ClassNotFoundException e) {
                throw new ConfigException(key, value, "no such class");
            }
        }
        if (!expected.isAssignableFrom(type)) {
            throw new ConfigException(key, value, "not a " + expected.getName());
        }
        return type.asSubclass(expected);
    }

    private static long parseLong(String key, Object value) {
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(key, value, "not a number");
        }
    }
}
