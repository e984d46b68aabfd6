package io.sam3stream.facade.http;

import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body up to a limit: a declared {@code Content-Length} over it is refused before reading, and a
 * body without one (chunked) is refused as soon as it grows past the limit, so an oversized upload never occupies
 * more than the limit in memory.
 */
final class BodyReader {

    private BodyReader() {
    }

    static byte[] read(Context ctx, long limit) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            throw tooLarge(declared + " bytes", limit);
        }
        try (InputStream in = ctx.req().getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
                if (total > limit) {
                    throw tooLarge("more than " + limit + " bytes", limit);
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
    }

    private static ApiException tooLarge(String size, long limit) {
        return ApiException.payloadTooLarge("the body has " + size + "; the limit is " + limit
                + " bytes (from SAM3_MAX_MESSAGE_BYTES)");
    }
}
