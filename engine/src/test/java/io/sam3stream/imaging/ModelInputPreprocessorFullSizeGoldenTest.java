package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The preprocessing reproduces upstream's 1008x1008 tensors of the full-size procedural golden set (640x480
 * upscaled on both sides), compared through the SHA-256 digests of the reference tensors.
 */
class ModelInputPreprocessorFullSizeGoldenTest {

    private static final String DIR = "/golden/sam3-full-procedural/";

    private static RgbImage image;
    private static Map<String, String> expectedDigests;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream png = ModelInputPreprocessorFullSizeGoldenTest.class.getResourceAsStream(DIR + "image.png");
                InputStream sums = ModelInputPreprocessorFullSizeGoldenTest.class
                        .getResourceAsStream(DIR + "preprocessing.sha256")) {
            image = new ImageDecoder(ImageLimits.DEFAULT).decode(png.readAllBytes());
            expectedDigests = new HashMap<>();
            for (String line : new String(sums.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                String[] digestAndName = line.trim().split("\\s+");
                expectedDigests.put(digestAndName[1], digestAndName[0]);
            }
        }
    }

    private final ModelInputPreprocessor preprocessor =
            new ModelInputPreprocessor(ModelInputPreprocessor.SAM3_INPUT_SIZE);

    @Test
    void resizedUint8MatchesUpstreamBitForBit() {
        assertEquals(expectedDigests.get("image.resized_uint8_chw"),
                Sha256.of(preprocessor.resizeToUint8Chw(image)));
    }

    @Test
    void modelInputMatchesUpstreamBitForBit() {
        assertEquals(expectedDigests.get("image.preprocessed"), Sha256.ofFloats(preprocessor.preprocess(image)));
    }
}
