package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Upsampling the kept queries' 48x48 mask logits of the tiny golden set to the original 150x200 reproduces
 * upstream's {@code mask_probs} and binary {@code masks} ({@code Sam3Processor} at threshold 0.5).
 */
class MaskUpsamplerGoldenTest {

    private static final int GRID = 48;
    private static final int HEIGHT = 150;
    private static final int WIDTH = 200;
    /** The golden set's own reruns move mask probabilities by ~1e-6 (its README); 1e-5 leaves no room for error. */
    private static final double PROBABILITY_TOLERANCE = 1e-5;
    /** Pixels this close to 0.5 may flip between PyTorch builds, so their binary value is not compared. */
    private static final double AMBIGUOUS_BAND = 1e-4;

    private final MaskUpsampler upsampler = MaskUpsampler.of(GRID, GRID, HEIGHT, WIDTH);

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void keptMasksMatchUpstreamProbabilitiesAndBinaryMasks(String golden) {
        boolean[] keep = TinyGolden.outputs().get(golden + ".post_t050.keep").toBooleans();
        float[] logits = TinyGolden.outputs().get(golden + ".seg.pred_masks").toFloats();
        float[] probabilities = TinyGolden.outputs().get(golden + ".post_t050.mask_probs").toFloats();
        boolean[] masks = TinyGolden.outputs().get(golden + ".post_t050.masks").toBooleans();

        int kept = 0;
        int comparedBinary = 0;
        for (int query = 0; query < keep.length; query++) {
            if (!keep[query]) {
                continue;
            }
            int offset = query * GRID * GRID;
            float[] upsampled = upsampler.upsampleLogits(logits, offset);
            BinaryMask mask = upsampler.toBinaryMask(logits, offset);
            int reference = kept * HEIGHT * WIDTH;
            long area = 0;
            for (int i = 0; i < HEIGHT * WIDTH; i++) {
                double probability = 1.0 / (1.0 + Math.exp(-upsampled[i]));
                float expected = probabilities[reference + i];
                assertEquals(expected, probability, PROBABILITY_TOLERANCE, "query " + query + " pixel " + i);
                boolean inside = mask.pixels()[i] == 1;
                assertEquals(upsampled[i] > 0, inside, "binary mask is logit > 0");
                if (Math.abs(expected - 0.5) >= AMBIGUOUS_BAND) {
                    assertEquals(masks[reference + i], inside, "query " + query + " pixel " + i);
                    comparedBinary++;
                }
                area += inside ? 1 : 0;
            }
            assertEquals(area, mask.area());
            kept++;
        }
        assertEquals(probabilities.length / (HEIGHT * WIDTH), kept, "kept queries");
        assertTrue(comparedBinary > kept * HEIGHT * WIDTH * 0.99, "compared " + comparedBinary + " binary pixels");
    }
}
