package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.RawTensor;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The preprocessing reproduces upstream's tensors of the tiny golden set: 150x200 (HxW) resized to 168x168,
 * which downscales the width (antialiased, 3 taps) and upscales the height.
 */
class ModelInputPreprocessorGoldenTest {

    private static final int TINY_INPUT_SIZE = 168;

    private final ModelInputPreprocessor preprocessor = new ModelInputPreprocessor(TINY_INPUT_SIZE);

    private static RgbImage goldenImage() {
        RawTensor hwc = TinyGolden.inputs().get("image.uint8_hwc");
        long[] shape = hwc.shape();
        byte[] pixels = new byte[(int) hwc.size()];
        hwc.data().get(pixels);
        return new RgbImage((int) shape[1], (int) shape[0], pixels);
    }

    @Test
    void resizedUint8MatchesUpstreamBitForBit() {
        RawTensor expected = TinyGolden.inputs().get("image.resized_uint8_chw");
        byte[] expectedBytes = new byte[(int) expected.size()];
        expected.data().get(expectedBytes);

        assertArrayEquals(expectedBytes, preprocessor.resizeToUint8Chw(goldenImage()));
    }

    @Test
    void modelInputMatchesUpstreamExactly() {
        // the issue allows 1e-6; the table of normalised uint8 levels reproduces torch's arithmetic exactly
        float[] expected = TinyGolden.inputs().get("image.preprocessed").toFloats();

        assertArrayEquals(expected, preprocessor.preprocess(goldenImage()));
    }

    @Test
    void goldenPngDecodesToTheGoldenPixels() throws IOException {
        byte[] png = Files.readAllBytes(TinyGolden.dir().resolve("image.png"));

        RgbImage decoded = new ImageDecoder(ImageLimits.DEFAULT).decode(png);

        assertEquals(200, decoded.width());
        assertArrayEquals(goldenImage().pixels(), decoded.pixels());
    }
}
