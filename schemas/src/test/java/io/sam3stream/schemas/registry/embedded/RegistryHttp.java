package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.apache.avro.Schema;

/** Raw HTTP calls to a registry, so tests see exactly what any Confluent-API client would. */
final class RegistryHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http = HttpClient.newHttpClient();

    RegistryHttp(URI base) {
        this.base = base;
    }

    /** A status and a parsed JSON body. */
    record Reply(int status, JsonNode body, String contentType) {
        int errorCode() {
            return body.path("error_code").asInt();
        }
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    Reply post(String path, String jsonBody) {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody)));
    }

    Reply put(String path, String jsonBody) {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString(jsonBody)));
    }

    Reply delete(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).DELETE());
    }

    /** POSTs {@code {"schema": "<schema>"}}. */
    Reply postSchema(String path, String schemaText) {
        return post(path, JSON.createObjectNode().put("schema", schemaText).toString());
    }

    Reply postSchema(String path, Schema schema) {
        return postSchema(path, schema.toString());
    }

    /** Registers and returns the id, failing on anything but 200. */
    int register(String subject, Schema schema) {
        Reply reply = postSchema("/subjects/" + subject + "/versions", schema);
        if (reply.status() != 200) {
            throw new AssertionError("registration failed: " + reply);
        }
        return reply.body().get("id").asInt();
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), JSON.readTree(response.body()),
                    response.headers().firstValue("Content-Type").orElse(""));
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
