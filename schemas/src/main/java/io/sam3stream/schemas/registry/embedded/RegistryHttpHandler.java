package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sam3stream.schemas.registry.RegistryApi;
import io.sam3stream.schemas.registry.SchemaText;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the Confluent Schema Registry REST API over a {@link RegistryState} (the endpoints are listed in the
 * module's README, with what differs from Confluent's). Errors are Confluent's body
 * {@code {"error_code": N, "message": "..."}} with Confluent's codes.
 */
final class RegistryHttpHandler implements HttpHandler {

    /** Requests bodies are schemas; anything larger than this is not one we want. */
    static final int MAX_BODY_BYTES = 1 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RegistryState state;
    private final SettingEndpoint<CompatibilityLevel> levels;
    private final SettingEndpoint<RegistryMode> modes;

    RegistryHttpHandler(RegistryState state) {
        this.state = state;
        // Confluent answers a PUT /config with "compatibility" but a GET or DELETE with "compatibilityLevel"
        this.levels = new SettingEndpoint<>("compatibility", "compatibilityLevel",
                name -> parse(CompatibilityLevel.class, name, RegistryApiException::invalidCompatibilityLevel),
                state::level, (subject, level, force) -> state.setLevel(subject, level), state::deleteLevel);
        this.modes = new SettingEndpoint<>("mode", "mode",
                name -> parse(RegistryMode.class, name, RegistryApiException::invalidMode),
                state::mode, state::setMode, state::deleteMode);
    }

    /** A setter of a {@link SettingEndpoint}. */
    @FunctionalInterface
    private interface SettingWriter<T> {
        void set(String subject, T value, boolean force);
    }

    /**
     * One of the two endpoints of a registry-wide setting with per-subject overrides ({@code /config},
     * {@code /mode}): the key its PUT body and answer use, the key its GET and DELETE answers use, and the state's
     * operations. A null subject means the global value.
     */
    private record SettingEndpoint<T extends Enum<T>>(String bodyKey, String answerKey, Function<String, T> parser,
            BiFunction<String, Boolean, T> get, SettingWriter<T> writer, Function<String, T> delete) {

        T set(String subject, String name, boolean force) {
            T value = parser.apply(name);
            writer.set(subject, value, force);
            return value;
        }
    }

    private static <T extends Enum<T>> T parse(Class<T> type, String name,
            Function<String, RegistryApiException> invalid) {
        try {
            return Enum.valueOf(type, name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid.apply(name);
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Response response;
            try {
                response = route(exchange.getRequestMethod(), segments(exchange.getRequestURI().getRawPath()),
                        new QueryParameters(exchange.getRequestURI().getRawQuery()), exchange);
            } catch (RegistryApiException e) {
                response = error(e.httpStatus(), e.errorCode(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.error("schema registry request {} {} failed", exchange.getRequestMethod(),
                        exchange.getRequestURI(), e);
                response = error(500, 500, "Internal server error: " + e);
            }
            byte[] body = JSON.writeValueAsBytes(response.body());
            exchange.getResponseHeaders().set("Content-Type", RegistryApi.CONTENT_TYPE);
            exchange.sendResponseHeaders(response.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private Response route(String method, List<String> path, QueryParameters query, HttpExchange exchange)
            throws IOException {
        String root = path.isEmpty() ? "" : path.get(0);
        Response response = switch (root) {
            case "" -> path.isEmpty() ? ok(JSON.createObjectNode()) : null;
            case "subjects" -> subjects(method, path, query, exchange);
            case "schemas" -> schemas(method, path, query);
            case "compatibility" -> compatibility(method, path, query, exchange);
            case "contexts" -> path.size() == 1 ? contexts(method) : null;
            case "mode" -> path.size() <= 2 ? setting(method, subjectOf(path), query, exchange, modes) : null;
            case "config" -> path.size() <= 2 ? setting(method, subjectOf(path), query, exchange, levels) : null;
            default -> null;
        };
        return response != null ? response : error(404, 404, "HTTP 404 Not Found");
    }

    private Response subjects(String method, List<String> path, QueryParameters query, HttpExchange exchange)
            throws IOException {
        int n = path.size();
        boolean deleted = query.flag("deleted");
        if (n == 1) {
            requireGet(method);
            String prefix = query.text("subjectPrefix", "");
            return ok(query.page(query.flag("deletedOnly") ? state.deletedSubjects(prefix)
                    : state.subjects(prefix, deleted)));
        }
        String subject = n > 1 ? path.get(1) : null;
        if (n == 2) {
            return switch (method) {
                case "POST" -> ok(state.lookUp(subject, RegistrationRequest.from(readBody(exchange)).schema(),
                        deleted));
                case "DELETE" -> ok(state.deleteSubject(subject, query.flag("permanent")));
                default -> throw methodNotAllowed();
            };
        }
        if (n < 3 || !path.get(2).equals("versions")) {
            return null;
        }
        if (n == 3) {
            return switch (method) {
                case "POST" -> {
                    // normalize=true is accepted: schemas are compared by their normalised form anyway
                    RegistrationRequest request = RegistrationRequest.from(readBody(exchange));
                    int id = state.register(subject, request.schema(), request.id(), request.version());
                    yield ok(JSON.createObjectNode().put("id", id));
                }
                case "GET" -> ok(query.page(query.flag("deletedOnly") ? state.deletedVersions(subject)
                        : state.versions(subject, deleted)));
                default -> throw methodNotAllowed();
            };
        }
        String version = path.get(3);
        if (n == 4) {
            return switch (method) {
                case "GET" -> ok(state.version(subject, version, deleted));
                case "DELETE" -> ok(state.deleteVersion(subject, version, query.flag("permanent")));
                default -> throw methodNotAllowed();
            };
        }
        if (n == 5 && path.get(4).equals("schema")) {
            requireGet(method);
            return ok(JSON.readTree(state.version(subject, version, deleted).schema()));
        }
        if (n == 5 && path.get(4).equals("referencedby")) {
            requireGet(method);
            return ok(state.referencedBy(subject, version));
        }
        return null;
    }

    private Response schemas(String method, List<String> path, QueryParameters query) throws IOException {
        int n = path.size();
        boolean deleted = query.flag("deleted");
        if (n == 1) {
            requireGet(method);
            return ok(query.page(state.schemas(query.text("subjectPrefix", ""), deleted, query.flag("latestOnly"))));
        }
        if (n == 2 && path.get(1).equals("types")) {
            requireGet(method);
            return ok(List.of("AVRO")); // the one schema type this registry stores
        }
        if (n < 3 || n > 4 || !path.get(1).equals("ids")) {
            return null;
        }
        requireGet(method);
        int id = schemaId(path.get(2));
        if (n == 3) {
            SchemaText schema = state.schemaById(id);
            ObjectNode body = JSON.createObjectNode().put("schema", schema.schema());
            if (!schema.references().isEmpty()) {
                body.set("references", JSON.valueToTree(schema.references()));
            }
            if (query.flag("fetchMaxId")) {
                body.put("maxId", state.maxId());
            }
            return ok(body);
        }
        return switch (path.get(3)) {
            case "schema" -> ok(JSON.readTree(state.schemaById(id).schema()));
            case "subjects" -> ok(state.versionsOfId(id, deleted).stream().map(RegistryState.Version::subject)
                    .distinct().toList());
            case "versions" -> ok(state.versionsOfId(id, deleted).stream().map(v -> JSON.createObjectNode()
                    .put("subject", v.subject()).put("version", v.version())).toList());
            default -> null;
        };
    }

    private Response compatibility(String method, List<String> path, QueryParameters query, HttpExchange exchange)
            throws IOException {
        int n = path.size();
        if ((n != 4 && n != 5) || !path.get(1).equals("subjects") || !path.get(3).equals("versions")) {
            return null;
        }
        if (!method.equals("POST")) {
            throw methodNotAllowed();
        }
        String version = n == 5 ? path.get(4) : null;
        SchemaText schema = RegistrationRequest.from(readBody(exchange)).schema();
        List<String> problems = state.compatibilityProblems(path.get(2), version, schema);
        ObjectNode body = JSON.createObjectNode().put("is_compatible", problems.isEmpty());
        if (query.flag("verbose")) {
            problems.forEach(body.putArray("messages")::add);
        }
        return ok(body);
    }

    private Response setting(String method, String subject, QueryParameters query, HttpExchange exchange,
            SettingEndpoint<?> endpoint) throws IOException {
        return switch (method) {
            case "PUT" -> {
                String name = readBody(exchange).path(endpoint.bodyKey()).asText("");
                yield answer(endpoint.bodyKey(), endpoint.set(subject, name, query.flag("force")));
            }
            case "DELETE" -> answer(endpoint.answerKey(), endpoint.delete().apply(subject));
            case "GET" -> answer(endpoint.answerKey(),
                    endpoint.get().apply(subject, query.flag("defaultToGlobal")));
            default -> throw methodNotAllowed();
        };
    }

    private static Response answer(String key, Enum<?> value) {
        return ok(JSON.createObjectNode().put(key, value.name()));
    }

    private static String subjectOf(List<String> path) {
        return path.size() == 2 ? path.get(1) : null;
    }

    private static JsonNode readBody(HttpExchange exchange) throws IOException {
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            throw new RegistryApiException(413, 413, "Request body larger than " + MAX_BODY_BYTES + " bytes");
        }
        try {
            JsonNode body = JSON.readTree(bytes);
            if (body == null || !body.isObject()) {
                throw new RegistryApiException(400, 400, "The request body must be a JSON object");
            }
            return body;
        } catch (JsonProcessingException e) {
            throw new RegistryApiException(400, 400, "Malformed JSON: " + e.getOriginalMessage());
        }
    }

    private static int schemaId(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw RegistryApiException.schemaNotFound("Schema " + text);
        }
    }

    private static Response contexts(String method) {
        requireGet(method);
        return ok(List.of(".")); // the default context, the only one
    }

    private static void requireGet(String method) {
        if (!method.equals("GET")) {
            throw methodNotAllowed();
        }
    }

    private static RegistryApiException methodNotAllowed() {
        return new RegistryApiException(405, 405, "HTTP 405 Method Not Allowed");
    }

    /** The decoded segments of a raw path; an encoded '/' inside a subject name stays inside its segment. */
    private static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String raw : rawPath.split("/")) {
            if (!raw.isEmpty()) {
                // '+' is literal in a path, unlike in a form, so keep it from decoding to a space
                segments.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return segments;
    }

    private static Response ok(Object body) {
        return new Response(200, body);
    }

    private static Response error(int status, int errorCode, String message) {
        return new Response(status, JSON.createObjectNode().put("error_code", errorCode).put("message", message));
    }

    private record Response(int status, Object body) {
    }
}
