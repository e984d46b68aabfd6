package io.sam3stream.facade.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImageFirstTreeReaderTest {

    private static final byte[] BYTES = "any bytes at all, long enough for several groups".getBytes(StandardCharsets.UTF_8);
    private static final String BASE64 = Base64.getEncoder().encodeToString(BYTES);

    private final ImageFirstTreeReader reader = new ImageFirstTreeReader(plainReader());

    private static ObjectReader plainReader() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.getFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    private Optional<ObjectNode> read(String json) {
        return reader.read(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void decodesTheTopLevelImageAndKeepsEveryOtherFieldAsTheTreeHasIt() throws Exception {
        ObjectNode root = read("{\"prompts\": [\"cat\", {\"text\": \"dog\"}], \"image\": \"" + BASE64
                + "\", \"threshold\": 0.25, \"metadata\": {\"image\": \"not decoded\"}, \"x\": null}").orElseThrow();

        assertTrue(root.get("image").isBinary());
        assertArrayEquals(BYTES, root.get("image").binaryValue());
        assertEquals("[\"cat\",{\"text\":\"dog\"}]", root.get("prompts").toString());
        assertEquals(0.25, root.get("threshold").doubleValue());
        assertEquals("not decoded", root.get("metadata").get("image").textValue(), "only the top level is read fast");
        assertTrue(root.get("x").isNull());
    }

    @Test
    void aNonStringImageIsLeftForTheSchemaCheck() {
        ObjectNode root = read("{\"image\": 42, \"prompts\": [\"cat\"]}").orElseThrow();
        assertEquals(42, root.get("image").intValue());
    }

    @Test
    void groupsOfFourSeparatedByEscapedLineBreaksAreDecodedToo() throws Exception {
        String wrapped = BASE64.replaceAll("(.{8})", "$1\\\\n");
        assertArrayEquals(BYTES, read("{\"image\": \"" + wrapped + "\"}").orElseThrow().get("image").binaryValue());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "[1, 2]",
        "{\"image\": \"QUJD\", \"image\": \"QUJD\"}",
        "{\"image\": \"QUJD\"} trailing",
        "{\"image\": \"QUJD\"",
        "{\"image\": \"QU*D\"}",
        "{\"image\": \"QUI\"}",
        "{\"image\": \"QU\\nJD\"}",
        "{\"image\": \"QU\\\\nJD\"}",
    })
    void leavesEveryOtherBodyToThePlainReading(String body) {
        assertEquals(Optional.empty(), read(body), body);
    }
}
