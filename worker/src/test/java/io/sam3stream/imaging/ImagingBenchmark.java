package io.sam3stream.imaging;

import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import javax.imageio.ImageIO;

/**
 * Measures the two CPU-heavy imaging steps of a request at the reference server's benchmark size (a 1920x1080
 * photo, 50 instances), for docs/PERFORMANCE.md. Not a unit test: run it with
 * {@code java -cp worker/target/classes:worker/target/test-classes io.sam3stream.imaging.ImagingBenchmark}.
 * <ol>
 *   <li>decode a 1920x1080 PNG and preprocess it to the 1008x1008 model input (and decode it as a JPEG);</li>
 *   <li>upsample 50 mask-logit grids of 288x288 to 1920x1080, binarise and PNG-encode them.</li>
 * </ol>
 * The photo is the full-size golden image scaled up with noise added, so that it compresses like a camera PNG.
 */
public final class ImagingBenchmark {

    private static final int WIDTH = 1920;
    private static final int HEIGHT = 1080;
    private static final int MASK_GRID = 288;
    private static final int INSTANCES = 50;
    private static final int WARMUP_RUNS = 10;
    private static final int TIMED_RUNS = 15;

    private ImagingBenchmark() {}

    public static void main(String[] args) throws IOException {
        System.out.printf("cores: %d%n", Runtime.getRuntime().availableProcessors());
        byte[] png = photoPng();
        System.out.printf("input: %dx%d PNG, %.1f MB%n", WIDTH, HEIGHT, png.length / 1e6);
        ImageDecoder decoder = new ImageDecoder(ImageLimits.DEFAULT);
        ModelInputPreprocessor preprocessor = new ModelInputPreprocessor(ModelInputPreprocessor.SAM3_INPUT_SIZE);
        RgbImage image = decoder.decode(png);
        report("decode PNG", time(() -> decoder.decode(png)));
        report("preprocess to 1008x1008", time(() -> preprocessor.preprocess(image)));
        report("decode + preprocess", time(() -> preprocessor.preprocess(decoder.decode(png))));
        byte[] jpeg = jpeg(image);
        System.out.printf("(same picture as a JPEG of %.1f MB)%n", jpeg.length / 1e6);
        report("decode JPEG", time(() -> decoder.decode(jpeg)));

        float[] logits = maskLogits();
        MaskUpsampler upsampler = MaskUpsampler.of(MASK_GRID, MASK_GRID, HEIGHT, WIDTH);
        int grid = MASK_GRID * MASK_GRID;
        long[] bytes = new long[1];
        report("upsample 50 masks", time(() -> {
            for (int i = 0; i < INSTANCES; i++) {
                upsampler.toBinaryMask(logits, i * grid);
            }
        }));
        report("upsample + PNG-encode 50 masks, 1 thread", time(() -> {
            bytes[0] = 0;
            for (int i = 0; i < INSTANCES; i++) {
                bytes[0] += PngEncoder.encodeMask(upsampler.toBinaryMask(logits, i * grid)).length;
            }
        }));
        System.out.printf("  (50 mask PNGs: %.0f KiB)%n", bytes[0] / 1024.0);
        report("upsample + PNG-encode 50 masks, parallel", time(() -> IntStream.range(0, INSTANCES).parallel()
                .forEach(i -> PngEncoder.encodeMask(upsampler.toBinaryMask(logits, i * grid)))));
        report("upsample + COCO RLE 50 masks, 1 thread", time(() -> {
            for (int i = 0; i < INSTANCES; i++) {
                CocoRle.encode(upsampler.toBinaryMask(logits, i * grid));
            }
        }));
    }

    /** The golden 640x480 picture scaled to 1920x1080 with ±12 grey levels of noise, PNG-encoded by the JDK. */
    private static byte[] photoPng() throws IOException {
        BufferedImage source;
        try (InputStream in = ImagingBenchmark.class.getResourceAsStream("/golden/sam3-full-procedural/image.png")) {
            source = ImageIO.read(in);
        }
        BufferedImage photo = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_3BYTE_BGR);
        var g = photo.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(source, 0, 0, WIDTH, HEIGHT, null);
        g.dispose();
        byte[] raster = ((java.awt.image.DataBufferByte) photo.getRaster().getDataBuffer()).getData();
        Random random = new Random(1);
        for (int i = 0; i < raster.length; i++) {
            raster[i] = (byte) Math.max(0, Math.min(255, (raster[i] & 0xff) + random.nextInt(25) - 12));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(photo, "png", out);
        return out.toByteArray();
    }

    /** The picture as a JPEG at the JDK writer's default quality (0.75). */
    private static byte[] jpeg(RgbImage image) throws IOException {
        BufferedImage picture = new BufferedImage(image.width(), image.height(), BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                picture.setRGB(x, y, image.sample(x, y, 0) << 16 | image.sample(x, y, 1) << 8 | image.sample(x, y, 2));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(picture, "jpeg", out);
        return out.toByteArray();
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

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Sorted wall milliseconds of each timed run, and the process CPU milliseconds per run on average. */
    private record Timings(double[] wallMs, double cpuMsPerRun) {}

    private static Timings time(Runnable work) {
        for (int i = 0; i < WARMUP_RUNS; i++) {
            work.run();
        }
        double[] wall = new double[TIMED_RUNS];
        long cpuStart = OS.getProcessCpuTime(); // coarse ticks: only the total over all runs is meaningful
        for (int i = 0; i < TIMED_RUNS; i++) {
            long start = System.nanoTime();
            work.run();
            wall[i] = (System.nanoTime() - start) / 1e6;
        }
        double cpuPerRun = (OS.getProcessCpuTime() - cpuStart) / 1e6 / TIMED_RUNS;
        Arrays.sort(wall);
        return new Timings(wall, cpuPerRun);
    }

    /**
     * Median and minimum wall time, and the CPU time of the whole process per run (all threads, GC included): on a
     * machine shared with other work, CPU time is the steadier measure of the work itself.
     */
    private static void report(String what, Timings t) {
        System.out.printf("%-42s wall median %6.1f ms (min %6.1f)   cpu %6.1f ms   [%d runs]%n", what,
                t.wallMs()[TIMED_RUNS / 2], t.wallMs()[0], t.cpuMsPerRun(), TIMED_RUNS);
    }
}
