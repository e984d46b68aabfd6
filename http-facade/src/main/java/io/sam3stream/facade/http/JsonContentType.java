package io.sam3stream.facade.http;

import java.util.Locale;

/**
 * Which {@code Content-Type}s a JSON body may come with, decided as the reference server (FastAPI) decides: none at
 * all, {@code application/json}, or any {@code application/*+json}, parameters such as {@code charset} aside. A
 * body declared as anything else ({@code text/plain}, a form encoding) is not read as JSON there, so it fails the
 * schema: 422, before a byte of it is read here.
 */
final class JsonContentType {

    private JsonContentType() {
    }

    /** @throws ApiException 422 when {@code contentType} (null when absent) is not a JSON media type */
    static void require(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return;
        }
        int parameters = contentType.indexOf(';');
        String mediaType = (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim()
                .toLowerCase(Locale.ROOT);
        boolean json = mediaType.equals("application/json")
                || (mediaType.startsWith("application/") && mediaType.endsWith("+json"));
        if (!json) {
            throw ApiException.unprocessable("body: the Content-Type must be application/json, got " + mediaType);
        }
    }
}
