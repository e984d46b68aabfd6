package io.sam3stream.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.avro.Schema;

/**
 * Client of the Confluent Schema Registry REST API (the subset a serde needs, schema references included), so it
 * works against Confluent's registry, Apicurio's ccompat API and the embedded registry alike.
 *
 * <p>Schema ids are immutable once assigned, so both directions are cached for the life of the client: a schema
 * registered or looked up under a subject is not asked for again, and a schema fetched by id is not fetched
 * again. Only {@link #latestVersion} and {@link #isCompatibleWithLatest} always ask, because their answers change
 * as versions are added. An id the registry does not know is remembered as missing for
 * {@link Builder#missingIdTtl} (default {@link #DEFAULT_MISSING_ID_TTL}), so that records naming unknown ids cost
 * one question per id, not one per record. Thread-safe.
 */
public final class SchemaRegistryClient {

    /** Time allowed for connecting and for each request when the builder is not told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** How long an id the registry does not know is answered from memory, unless the builder says otherwise. */
    public static final Duration DEFAULT_MISSING_ID_TTL = Duration.ofSeconds(10);

    /** Most unknown ids remembered at once. */
    private static final int MISSING_ID_CAPACITY = 10_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final Duration timeout;
    private final String authorization;
    private final HttpClient http;
    private final ConcurrentMap<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final ConcurrentMap<SubjectSchema, Integer> idsBySubjectSchema = new ConcurrentHashMap<>();
    private final ConcurrentMap<SubjectSchema, SubjectVersion> versionsBySubjectSchema = new ConcurrentHashMap<>();
    private final MissingSchemaIds missingIds;

    private SchemaRegistryClient(Builder builder) {
        this.baseUrl = stripTrailingSlash(builder.url.toString());
        this.timeout = builder.timeout;
        this.authorization = builder.authorization;
        this.missingIds = new MissingSchemaIds(builder.missingIdTtl, MISSING_ID_CAPACITY, System::nanoTime);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * Starts a client of the registry at {@code url}; the URL may carry a path prefix, as Apicurio's
     * {@code /apis/ccompat/v7} does.
     */
    public static Builder builder(URI url) {
        return new Builder(url);
    }

    /** The registry's base URL. */
    public String url() {
        return baseUrl;
    }

    /**
     * Registers {@code schema} under {@code subject} ({@code POST /subjects/{subject}/versions}) and returns its
     * id; registering a schema the subject already holds returns the existing id.
     *
     * @throws SchemaRegistryException with {@link RegistryApi#INCOMPATIBLE_SCHEMA} when the schema breaks the
     *     subject's compatibility level, or when the registry fails or cannot be reached
     */
    public int register(String subject, Schema schema) {
        int id = register(subject, SchemaText.of(schema.toString()));
        schemasById.putIfAbsent(id, schema);
        return id;
    }

    /**
     * Registers {@code schema}, whose text may name types through its references, under {@code subject} and
     * returns its id, as {@link #register(String, Schema)} does.
     */
    public int register(String subject, SchemaText schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer cached = idsBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        int id = idOf(send(post("/subjects/" + encode(subject) + "/versions", schema)));
        idsBySubjectSchema.putIfAbsent(key, id);
        return id;
    }

    private static int idOf(JsonNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new SchemaRegistryException("registry answer has no schema id: " + body, null);
        }
        return id.intValue();
    }

    /**
     * The id of {@code schema} as registered under {@code subject} ({@code POST /subjects/{subject}}), without
     * registering it.
     *
     * @throws SchemaRegistryException with {@link RegistryApi#SUBJECT_NOT_FOUND} or
     *     {@link RegistryApi#SCHEMA_NOT_FOUND} when it is not registered there
     */
    public int lookUpId(String subject, Schema schema) {
        SchemaText text = SchemaText.of(schema.toString());
        Integer registered = idsBySubjectSchema.get(new SubjectSchema(subject, text));
        int id = registered != null ? registered : lookUp(subject, text, schema).id();
        schemasById.putIfAbsent(id, schema);
        return id;
    }

    /**
     * The version of {@code subject} that holds {@code schema} ({@code POST /subjects/{subject}}), without
     * registering it; its references are resolved to give the version's full schema.
     *
     * @throws SchemaRegistryException with {@link RegistryApi#SUBJECT_NOT_FOUND} or
     *     {@link RegistryApi#SCHEMA_NOT_FOUND} when it is not registered there
     */
    public SubjectVersion lookUp(String subject, SchemaText schema) {
        return lookUp(subject, schema, null);
    }

    /** {@link #lookUp(String, SchemaText)}, taking the version's schema as {@code known} when the caller has it. */
    private SubjectVersion lookUp(String subject, SchemaText schema, Schema known) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        SubjectVersion cached = versionsBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode body = send(post("/subjects/" + encode(subject), schema));
        SubjectVersion found = known == null ? subjectVersion(body, subject) : new SubjectVersion(
                body.path("subject").asText(subject), body.path("version").asInt(), idOf(body), known);
        idsBySubjectSchema.putIfAbsent(key, found.id());
        SubjectVersion raced = versionsBySubjectSchema.putIfAbsent(key, found);
        return raced != null ? raced : found;
    }

    /**
     * The schema with the registry-wide {@code id} ({@code GET /schemas/ids/{id}}).
     *
     * @throws SchemaRegistryException with {@link RegistryApi#SCHEMA_NOT_FOUND} when no schema has that id (or the
     *     registry said so less than the missing-id TTL ago)
     */
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        if (missingIds.contains(id)) {
            throw new SchemaRegistryException(404, RegistryApi.SCHEMA_NOT_FOUND,
                    "schema " + id + " not found (the registry said so recently)");
        }
        JsonNode body;
        try {
            body = send(get("/schemas/ids/" + id));
        } catch (SchemaRegistryException e) {
            if (e.isSchemaNotFound()) {
                missingIds.add(id);
            }
            throw e;
        }
        String type = body.path("schemaType").asText("AVRO");
        if (!"AVRO".equals(type)) {
            throw new SchemaRegistryException("schema " + id + " is a " + type + " schema, not Avro", null);
        }
        Schema schema = resolve(body, "schema " + id);
        Schema raced = schemasById.putIfAbsent(id, schema);
        return raced != null ? raced : schema;
    }

    /**
     * The newest version registered under {@code subject} ({@code GET /subjects/{subject}/versions/latest}).
     *
     * @throws SchemaRegistryException with {@link RegistryApi#SUBJECT_NOT_FOUND} when the subject is unknown
     */
    public SubjectVersion latestVersion(String subject) {
        SubjectVersion latest = subjectVersion(send(get("/subjects/" + encode(subject) + "/versions/latest")),
                subject);
        schemasById.putIfAbsent(latest.id(), latest.schema());
        return latest;
    }

    /**
     * Whether {@code schema} may be registered under {@code subject} next, judged by the subject's compatibility
     * level against its latest version ({@code POST /compatibility/subjects/{subject}/versions/latest}).
     */
    public boolean isCompatibleWithLatest(String subject, Schema schema) {
        JsonNode body = send(post("/compatibility/subjects/" + encode(subject) + "/versions/latest",
                SchemaText.of(schema.toString())));
        return body.path("is_compatible").asBoolean(false);
    }

    private SubjectVersion subjectVersion(JsonNode body, String subject) {
        return new SubjectVersion(body.path("subject").asText(subject), body.path("version").asInt(), idOf(body),
                resolve(body, "version of " + subject));
    }

    /**
     * The schema of a registry answer, with the types its references name fetched (each from its subject's
     * version, soft-deleted ones included, as Confluent's clients do) and parsed before it.
     */
    private Schema resolve(JsonNode body, String what) {
        Schema.Parser parser = new Schema.Parser();
        loadReferences(parser, body.path("references"), new HashSet<>(), what);
        return parse(parser, body, what);
    }

    private void loadReferences(Schema.Parser parser, JsonNode references, Set<String> loaded, String what) {
        for (JsonNode reference : references) {
            String subject = reference.path("subject").asText();
            int version = reference.path("version").asInt();
            String name = reference.path("name").asText();
            if (!loaded.add(subject + "/" + version) || parser.getTypes().containsKey(name)) {
                continue; // reached through another reference already
            }
            JsonNode referenced = send(get("/subjects/" + encode(subject) + "/versions/" + version + "?deleted=true"));
            String referencedWhat = "version " + version + " of " + subject + ", referenced by " + what;
            loadReferences(parser, referenced.path("references"), loaded, referencedWhat);
            parse(parser, referenced, referencedWhat);
        }
    }

    private HttpRequest.Builder get(String path) {
        return request(path).GET();
    }

    private HttpRequest.Builder post(String path, SchemaText schema) {
        ObjectNode body = JSON.createObjectNode().put("schema", schema.schema());
        if (!schema.references().isEmpty()) {
            body.set("references", JSON.valueToTree(schema.references()));
        }
        return request(path)
                .header("Content-Type", RegistryApi.CONTENT_TYPE)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("Accept", RegistryApi.CONTENT_TYPE);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request;
    }

    private JsonNode send(HttpRequest.Builder request) {
        HttpRequest built = request.build();
        HttpResponse<String> response;
        try {
            response = http.send(built, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new SchemaRegistryException(describe(built) + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(describe(built) + " interrupted", e);
        }
        JsonNode body = readJson(response.body());
        int status = response.statusCode();
        if (status / 100 == 2 && body != null) {
            return body;
        }
        if (body != null && body.has("error_code")) {
            throw new SchemaRegistryException(status, body.path("error_code").asInt(),
                    body.path("message").asText(describe(built) + " failed"));
        }
        // A proxy or a non-registry server answered: keep a bounded piece of its body for diagnosis.
        String text = response.body();
        throw new SchemaRegistryException(status, status,
                describe(built) + " answered " + text.substring(0, Math.min(200, text.length())));
    }

    private static String describe(HttpRequest request) {
        return request.method() + " " + request.uri();
    }

    private static JsonNode readJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static Schema parse(Schema.Parser parser, JsonNode body, String what) {
        JsonNode text = body.get("schema");
        if (text == null || !text.isTextual()) {
            throw new SchemaRegistryException("registry answer for " + what + " has no schema: " + body, null);
        }
        try {
            return parser.parse(text.asText());
        } catch (RuntimeException e) {
            throw new SchemaRegistryException("registry answer for " + what + " is not a valid Avro schema", e);
        }
    }

    private static String encode(String pathSegment) {
        // URLEncoder encodes for forms; a path segment wants %20, not '+', for a space.
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private record SubjectSchema(String subject, SchemaText schema) {
    }

    /** Settings of a {@link SchemaRegistryClient}. */
    public static final class Builder {

        private final URI url;
        private Duration timeout = DEFAULT_TIMEOUT;
        private String authorization;
        private Duration missingIdTtl = DEFAULT_MISSING_ID_TTL;

        private Builder(URI url) {
            this.url = Objects.requireNonNull(url, "url");
        }

        /** Time allowed for connecting and for each request; {@link #DEFAULT_TIMEOUT} unless set. */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * How long an id the registry does not know is answered as missing without asking again;
         * {@link #DEFAULT_MISSING_ID_TTL} unless set, zero to ask every time.
         */
        public Builder missingIdTtl(Duration ttl) {
            if (ttl.isNegative()) {
                throw new IllegalArgumentException("missing-id TTL must not be negative: " + ttl);
            }
            this.missingIdTtl = ttl;
            return this;
        }

        /** Sends HTTP basic credentials with every request. */
        public Builder basicAuth(String user, String password) {
            String token = user + ":" + password;
            this.authorization = "Basic "
                    + Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        /** The client. */
        public SchemaRegistryClient build() {
            return new SchemaRegistryClient(this);
        }
    }
}
