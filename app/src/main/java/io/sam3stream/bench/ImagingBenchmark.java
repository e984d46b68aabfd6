package io.sam3stream.bench;

import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.imaging.MaskUpsampler;
import io.sam3stream.imaging.ModelInputPreprocessor;
import io.sam3stream.imaging.PngEncoder;
import io.sam3stream.imaging.SyntheticPicture;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;

/**
 * The two CPU-heavy imaging steps of a request at the reference server's benchmark size, against the seed's
 * PIL/torch path ({@link UpstreamAnchor}):
 * <ol>
 *   <li>decode a 1920×1080 PNG and preprocess it to the 1008×1008 model input;</li>
 *   <li>upsample 50 mask-logit grids of 288×288 to 1920×1080, binarise and PNG-encode each, on one thread (the
 *       engine's {@code finish} does the same per instance).</li>
 * </ol>
 * The picture is a {@link SyntheticPicture}: noisy enough to compress like a camera PNG.
 */
public final class ImagingBenchmark {

    private static final int WIDTH = 1920;
    private static final int HEIGHT = 1080;
    private static final int MASK_GRID = 288;
    private static final int INSTANCES = 50;

    /**
     * @param pngBytes             size of the benchmark picture
     * @param decodePreprocessMs   median wall milliseconds of decode + preprocess
     * @param postprocessMs        median wall milliseconds of upsample + binarise + PNG-encode of 50 masks
     */
    public record Result(int pngBytes, double decodePreprocessMs, double postprocessMs) {}

    private ImagingBenchmark() {}

    /**
     * @param warmups runs before timing (lets the JIT compile the hot loops)
     * @param runs    timed runs; the median is reported
     */
    public static Result run(int warmups, int runs, Consumer<String> log) {
        byte[] png = SyntheticPicture.png(WIDTH, HEIGHT, 0);
        ImageDecoder decoder = new ImageDecoder(ImageLimits.DEFAULT);
        ModelInputPreprocessor preprocessor = new ModelInputPreprocessor(ModelInputPreprocessor.SAM3_INPUT_SIZE);
        double decodeMs = medianMillis(warmups, runs, () -> preprocessor.preprocess(decoder.decode(png)));
        log.accept(String.format(Locale.ROOT, "decode + preprocess of a %dx%d PNG (%.1f MB): %.1f ms", WIDTH, HEIGHT,
                png.length / 1e6, decodeMs));

        float[] logits = maskLogits();
        MaskUpsampler upsampler = MaskUpsampler.of(MASK_GRID, MASK_GRID, HEIGHT, WIDTH);
        int grid = MASK_GRID * MASK_GRID;
        double postMs = medianMillis(warmups, runs, () -> {
            for (int i = 0; i < INSTANCES; i++) {
                PngEncoder.encodeMask(upsampler.toBinaryMask(logits, i * grid));
            }
        });
        log.accept(String.format(Locale.ROOT, "upsample + PNG-encode of %d masks at %dx%d: %.1f ms", INSTANCES,
                WIDTH, HEIGHT, postMs));
        return new Result(png.length, decodeMs, postMs);
    }

    /**
     * 50 instances: each a blob of positive logits in a random place, falling to negative around it, with some
     * noise so that mask edges are ragged rather than perfectly round.
     */
    private static float[] maskLogits() {
        Random random = new Random(2);
        float[] logits = new float[INSTANCES * MASK_GRID * MASK_GRID];
        for (int i = 0; i < INSTANCES; i++) {
            double cx = random.nextDouble() * MASK_GRID;
            double cy = random.nextDouble() * MASK_GRID;
            double radius = 10 + random.nextDouble() * 60;
            for (int y = 0; y < MASK_GRID; y++) {
                for (int x = 0; x < MASK_GRID; x++) {
                    double d = Math.hypot(x - cx, y - cy) / radius;
                    logits[(i * MASK_GRID + y) * MASK_GRID + x] = (float) (8 * (1 - d) + 0.5 * random.nextGaussian());
                }
            }
        }
        return logits;
    }

    private static double medianMillis(int warmups, int runs, Runnable work) {
        for (int i = 0; i < warmups; i++) {
            work.run();
        }
        double[] wall = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            work.run();
            wall[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(wall);
        return wall[runs / 2];
    }
}
