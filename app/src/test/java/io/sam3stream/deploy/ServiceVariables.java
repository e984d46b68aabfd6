package io.sam3stream.deploy;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The environment variables sam3-stream reads, as the code defines them: the {@link Knob}s, the native library
 * override, and {@code KAFKA_*} pass-throughs that {@link Settings} turns into a property some Kafka client of ours
 * understands. Deployment files are checked against this so a misspelt name fails a test instead of being ignored.
 */
final class ServiceVariables {

    private static final Set<String> KNOBS = Arrays.stream(Knob.values()).map(Enum::name)
            .collect(Collectors.toUnmodifiableSet());
    private static final Set<String> KAFKA_CLIENT_PROPERTIES = kafkaClientProperties();

    private ServiceVariables() {}

    /** True when the service reads the variable. */
    static boolean isRead(String name) {
        return KNOBS.contains(name) || isKafkaPassThrough(name);
    }

    /** True for a {@code KAFKA_*} variable that becomes a property of our producers, consumers or admin client. */
    static boolean isKafkaPassThrough(String name) {
        Set<String> properties = Settings.from(Map.of(name, "set")).kafkaOverrides().stringPropertyNames();
        return !properties.isEmpty() && KAFKA_CLIENT_PROPERTIES.containsAll(properties);
    }

    /** The value the service sees for a knob: the variable when set, else the knob's default. */
    static String resolved(Map<String, String> environment, Knob knob) {
        return Settings.from(environment).get(knob);
    }

    private static Set<String> kafkaClientProperties() {
        Set<String> names = new HashSet<>(ProducerConfig.configNames());
        names.addAll(ConsumerConfig.configNames());
        names.addAll(AdminClientConfig.configNames());
        return Set.copyOf(names);
    }
}
