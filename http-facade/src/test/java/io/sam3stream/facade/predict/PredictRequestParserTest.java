package io.sam3stream.facade.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.facade.http.ApiException;
import io.sam3stream.facade.testing.TestImages;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The request a valid body becomes (the refusals are proven over HTTP in PredictErrorsTest). */
class PredictRequestParserTest {

    private static final Instant DEADLINE = Instant.parse("2026-11-01T12:00:00Z");
    private static final byte[] PNG = TestImages.pngHeader(640, 480);

    private final PredictRequestParser parser = new PredictRequestParser(new RequestLimits(4096, 1 << 24, 4, 1 << 20));

    @Test
    void omittedFieldsTakeTheReferenceServersDefaults() {
        SegmentationRequest r = parse("{\"image\": \"" + TestImages.base64(PNG) + "\", \"prompts\": [\"a cat\"]}");

        assertEquals("id-1", r.getRequestId());
        assertArrayEquals(PNG, bytes(r.getImage()));
        assertNull(r.getImageUri());
        assertEquals("a cat", r.getPrompts().get(0).getText());
        assertEquals(0, r.getPrompts().get(0).getBoxes().size());
        assertEquals(0.5f, r.getThreshold());
        assertEquals(50, r.getMaxInstances());
        assertEquals(MaskFormat.png, r.getMaskFormat());
        assertEquals(DEADLINE, r.getDeadline());
        assertEquals(Map.of(), r.getMetadata());
    }

    @Test
    void everyFieldIsCarriedOver() {
        SegmentationRequest r = parse("{\"image\": \"" + TestImages.base64(PNG) + "\", \"prompts\": [\"cat\", "
                + "{\"text\": \"dog\", \"boxes\": [{\"box_xyxy\": [1, 2, 30.5, 40]}, "
                + "{\"box_xyxy\": [5, 6, 7, 8], \"positive\": false}]}], \"threshold\": 1, \"max_instances\": 200,"
                + " \"mask_format\": \"rle_compressed\", \"metadata\": {\"frame\": \"12\"}, \"unknown\": [1]}");

        assertEquals("dog", r.getPrompts().get(1).getText());
        assertEquals(30.5f, r.getPrompts().get(1).getBoxes().get(0).getBoxXyxy().getX1());
        assertEquals(BoxLabel.positive, r.getPrompts().get(1).getBoxes().get(0).getLabel());
        assertEquals(BoxLabel.negative, r.getPrompts().get(1).getBoxes().get(1).getLabel());
        assertEquals(1f, r.getThreshold());
        assertEquals(200, r.getMaxInstances());
        assertEquals(MaskFormat.rle_compressed, r.getMaskFormat());
        assertEquals(Map.of("frame", "12"), r.getMetadata());
    }

    @Test
    void acceptsLineWrappedBase64AndIntegralNumbersForIntegers() {
        String wrapped = TestImages.base64(PNG).replaceAll("(.{16})", "$1\\\\r\\\\n");

        SegmentationRequest r = parse("{\"image\": \"" + wrapped + "\", \"prompts\": [\"cat\"], \"max_instances\": 7.0}");

        assertArrayEquals(PNG, bytes(r.getImage()));
        assertEquals(7, r.getMaxInstances());
    }

    @Test
    void lineWrappedTextWithACharacterOutsideBase64IsStillRefused() {
        String wrapped = TestImages.base64(PNG).replaceAll("(.{16})", "$1\\\\n");
        String corrupt = wrapped.substring(0, 20) + "*" + wrapped.substring(21);

        ApiException e = assertThrows(ApiException.class,
                () -> parse("{\"image\": \"" + corrupt + "\", \"prompts\": [\"cat\"]}"));

        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("not valid base64"), e.getMessage());
    }

    private SegmentationRequest parse(String json) {
        return parser.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), "id-1", DEADLINE);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] b = new byte[buffer.remaining()];
        buffer.duplicate().get(b);
        return b;
    }
}
