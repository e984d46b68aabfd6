package io.sam3stream.facade.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** {@code GET /openapi.json}: the OpenAPI 3.1 description of this API, kept beside the code as a resource. */
public final class OpenApiRoute implements Handler {

    /** Class-path location of the document. */
    public static final String RESOURCE = "/io/sam3stream/facade/openapi.json";

    private final byte[] document;

    /**
     * The document with this server's own limits where they are configurable: the most prompts of a request is
     * {@code SAM3_MAX_PROMPTS}, so a client validating against the schema refuses what the server would refuse.
     */
    public OpenApiRoute(ObjectMapper mapper, int maxPrompts) {
        try (InputStream in = OpenApiRoute.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            JsonNode doc = mapper.readTree(in);
            ((ObjectNode) doc.at("/components/schemas/PredictRequest/properties/prompts")).put("maxItems", maxPrompts);
            document = mapper.writeValueAsBytes(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void handle(Context ctx) {
        ctx.contentType(ContentType.APPLICATION_JSON).result(document);
    }
}
