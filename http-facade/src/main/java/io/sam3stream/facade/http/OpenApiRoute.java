package io.sam3stream.facade.http;

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

    public OpenApiRoute() {
        try (InputStream in = OpenApiRoute.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void handle(Context ctx) {
        ctx.contentType(ContentType.APPLICATION_JSON).result(document);
    }
}
