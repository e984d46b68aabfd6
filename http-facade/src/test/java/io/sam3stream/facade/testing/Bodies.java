package io.sam3stream.facade.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON bodies of {@code POST /predict}. */
public final class Bodies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Bodies() {
    }

    /** A valid body: a {@code width}x{@code height} PNG and plain text prompts. */
    public static ObjectNode predict(int width, int height, String... prompts) {
        ObjectNode body = JSON.createObjectNode();
        body.put("image", TestImages.base64(TestImages.pngHeader(width, height)));
        ArrayNode array = body.putArray("prompts");
        for (String p : prompts) {
            array.add(p);
        }
        return body;
    }

    public static ObjectNode object() {
        return JSON.createObjectNode();
    }
}
