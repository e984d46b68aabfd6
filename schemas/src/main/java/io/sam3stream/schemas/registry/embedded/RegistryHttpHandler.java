package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sam3stream.schemas.registry.RegistryApi;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the Confluent Schema Registry REST API over a {@link RegistryState}:
 *
 * <pre>
 * GET  /subjects                                    GET  /schemas/ids/{id}
 * GET  /subjects/{subject}/versions                 POST /subjects/{subject}/versions            (register)
 * GET  /subjects/{subject}/versions/{version}       POST /subjects/{subject}                     (look up)
 * POST /compatibility/subjects/{subject}/versions[/{version}]   (?verbose=true adds messages)
 * GET|PUT /config                                   GET|PUT /config/{subject}
 * </pre>
 *
 * Errors are Confluent's body {@code {"error_code": N, "message": "..."}} with Confluent's codes.
 */
final class RegistryHttpHandler implements HttpHandler {

    /** Requests bodies are schemas; anything larger than this is not one we want. */
    static final int MAX_BODY_BYTES = 1 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RegistryState state;

    RegistryHttpHandler(RegistryState state) {
        this.state = state;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Response response;
            try {
                response = route(exchange.getRequestMethod(), segments(exchange.getRequestURI().getRawPath()),
                        exchange.getRequestURI().getRawQuery(), exchange);
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

    private Response route(String method, List<String> path, String query, HttpExchange exchange)
            throws IOException {
        int n = path.size();
        String root = n == 0 ? "" : path.get(0);
        switch (root) {
            case "" -> {
                return ok(JSON.createObjectNode());
            }
            case "subjects" -> {
                if (n == 1) {
                    requireMethod(method, "GET");
                    return ok(state.subjects());
                }
                String subject = path.get(1);
                if (n == 2) {
                    requireMethod(method, "POST");
                    RegistryState.Version version = state.lookUp(subject, schemaText(exchange));
                    return ok(version);
                }
                if (n == 3 && path.get(2).equals("versions")) {
                    if (method.equals("POST")) {
                        int id = state.register(subject, schemaText(exchange));
                        return ok(JSON.createObjectNode().put("id", id));
                    }
                    requireMethod(method, "GET");
                    return ok(state.versions(subject));
                }
                if (n == 4 && path.get(2).equals("versions")) {
                    requireMethod(method, "GET");
                    return ok(state.version(subject, path.get(3)));
                }
                if (n == 5 && path.get(2).equals("versions") && path.get(4).equals("schema")) {
                    requireMethod(method, "GET");
                    return ok(JSON.readTree(state.version(subject, path.get(3)).schema()));
                }
            }
            case "schemas" -> {
                if (n == 2 && path.get(1).equals("types")) {
                    requireMethod(method, "GET");
                    return ok(List.of("AVRO")); // the one schema type this registry stores
                }
                if (n == 3 && path.get(1).equals("ids")) {
                    requireMethod(method, "GET");
                    return ok(JSON.createObjectNode().put("schema", state.schemaById(schemaId(path.get(2)))));
                }
                if (n == 4 && path.get(1).equals("ids")) {
                    requireMethod(method, "GET");
                    int id = schemaId(path.get(2));
                    switch (path.get(3)) {
                        case "schema" -> {
                            return ok(JSON.readTree(state.schemaById(id)));
                        }
                        case "subjects" -> {
                            return ok(state.versionsOfId(id).stream().map(RegistryState.Version::subject)
                                    .distinct().toList());
                        }
                        case "versions" -> {
                            return ok(state.versionsOfId(id).stream().map(v -> JSON.createObjectNode()
                                    .put("subject", v.subject()).put("version", v.version())).toList());
                        }
                        default -> {
                            // 404 below
                        }
                    }
                }
            }
            case "compatibility" -> {
                if ((n == 4 || n == 5) && path.get(1).equals("subjects") && path.get(3).equals("versions")) {
                    requireMethod(method, "POST");
                    String version = n == 5 ? path.get(4) : null;
                    List<String> problems = state.compatibilityProblems(path.get(2), version, schemaText(exchange));
                    ObjectNode body = JSON.createObjectNode().put("is_compatible", problems.isEmpty());
                    if (hasFlag(query, "verbose")) {
                        problems.forEach(body.putArray("messages")::add);
                    }
                    return ok(body);
                }
            }
            case "contexts" -> {
                if (n == 1) {
                    requireMethod(method, "GET");
                    return ok(List.of(".")); // one, the default context
                }
            }
            case "mode" -> {
                if (n == 1) {
                    requireMethod(method, "GET");
                    return ok(JSON.createObjectNode().put("mode", "READWRITE")); // no import or read-only modes
                }
            }
            case "config" -> {
                if (n == 1 || n == 2) {
                    return config(method, n == 2 ? path.get(1) : null, exchange);
                }
            }
            default -> {
                // falls through to 404 below
            }
        }
        return error(404, 404, "HTTP 404 Not Found");
    }

    private Response config(String method, String subject, HttpExchange exchange) throws IOException {
        if (method.equals("PUT")) {
            CompatibilityLevel level = compatibilityLevel(readBody(exchange).path("compatibility").asText(""));
            if (subject == null) {
                state.setGlobalLevel(level);
            } else {
                state.setSubjectLevel(subject, level);
            }
            return ok(JSON.createObjectNode().put("compatibility", level.name()));
        }
        requireMethod(method, "GET");
        CompatibilityLevel level = subject == null
                ? state.globalLevel()
                : state.subjectLevel(subject).orElseThrow(() -> RegistryApiException.subjectLevelNotConfigured(subject));
        return ok(JSON.createObjectNode().put("compatibilityLevel", level.name()));
    }

    private static CompatibilityLevel compatibilityLevel(String name) {
        try {
            return CompatibilityLevel.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw RegistryApiException.invalidCompatibilityLevel(name);
        }
    }

    /** The Avro schema text of a register, look-up or compatibility body. */
    private static String schemaText(HttpExchange exchange) throws IOException {
        JsonNode body = readBody(exchange);
        String type = body.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw RegistryApiException.invalidSchema("this registry holds Avro schemas only, not " + type);
        }
        if (body.path("references").size() > 0) {
            throw RegistryApiException.invalidSchema("schema references are not supported");
        }
        JsonNode schema = body.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw RegistryApiException.invalidSchema("the body has no \"schema\" string");
        }
        return schema.asText();
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

    private static boolean hasFlag(String rawQuery, String name) {
        if (rawQuery == null) {
            return false;
        }
        for (String parameter : rawQuery.split("&")) {
            if (parameter.equalsIgnoreCase(name + "=true")) {
                return true;
            }
        }
        return false;
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new RegistryApiException(405, 405, "HTTP 405 Method Not Allowed");
        }
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
