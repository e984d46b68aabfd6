package io.sam3stream.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.kafka.TestRequests;
import java.util.Base64;

/** {@code POST /predict} bodies: the golden image of the tiny model unless another image is given. */
final class PredictBodies {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] GOLDEN = TestRequests.goldenImage();

    private PredictBodies() {}

    /** A valid body: the golden image and these prompts. */
    static ObjectNode valid(String... prompts) {
        return of(GOLDEN, prompts);
    }

    /** A body with this image (any bytes) and these prompts. */
    static ObjectNode of(byte[] image, String... prompts) {
        ObjectNode body = JSON.createObjectNode();
        body.put("image", Base64.getEncoder().encodeToString(image));
        ArrayNode array = body.putArray("prompts");
        for (String p : prompts) {
            array.add(p);
        }
        return body;
    }

    /**
     * A valid body whose metadata names its caller, so that the result (echoing the metadata) can be traced back to
     * it; masks come as compressed RLE, the smallest encoding, so that thousands of replies stay light.
     */
    static String tagged(String caller, String... prompts) {
        ObjectNode body = valid(prompts);
        body.putObject("metadata").put("caller", caller);
        body.put("mask_format", "rle_compressed");
        return body.toString();
    }
}
