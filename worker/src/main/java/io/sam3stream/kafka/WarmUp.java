package io.sam3stream.kafka;

import io.sam3stream.engine.Inference;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.Segmenter;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import javax.imageio.ImageIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forwards a worker runs before it reports READY: they pay the one-time costs (native library start-up, first
 * allocations, kernel selection) so that the first real request does not, and they measure how long a forward
 * takes on this device, which sizes the Kafka timeouts ({@link ProcessingTimeouts}).
 */
final class WarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);

    private WarmUp() {}

    /**
     * Runs {@code runs} full requests through {@code engine}, each on a different image so that the image-feature
     * cache cannot answer the later ones.
     *
     * @param forwardObserver told the wall time of every forward, in milliseconds
     * @param progress        told "Warming up (i/n) ..." before each run and "Warmup complete" after the last
     * @return the slowest forward, or empty when {@code runs} is 0
     */
    static Optional<Duration> run(Segmenter engine, int runs, DoubleConsumer forwardObserver,
            Consumer<String> progress) {
        Duration slowest = null;
        for (int run = 0; run < runs; run++) {
            progress.accept("Warming up (" + (run + 1) + "/" + runs + ") ...");
            PreparedRequest prepared = engine.prepare(SegmentRequest.of(image(engine.info().inputSize(), run),
                    "object"));
            long start = System.nanoTime();
            Inference inference = engine.infer(prepared);
            Duration forward = Duration.ofNanos(System.nanoTime() - start);
            forwardObserver.accept(forward.toNanos() / 1e6);
            engine.finish(inference);
            LOG.info("warm-up forward {} of {} took {} ms", run + 1, runs, forward.toMillis());
            slowest = slowest == null || forward.compareTo(slowest) > 0 ? forward : slowest;
        }
        progress.accept("Warmup complete");
        return Optional.ofNullable(slowest);
    }

    /** A PNG at the model's input size, its pixels a pattern that differs with {@code run}. */
    private static byte[] image(int side, int run) {
        int size = Math.max(side, 16);
        BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_3BYTE_BGR);
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                int r = (x * 255 / size + 40 * run) & 0xff;
                int g = (y * 255 / size) & 0xff;
                int b = ((x + y) * 127 / size + 80 * run) & 0xff;
                image.setRGB(x, y, r << 16 | g << 8 | b);
            }
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException e) {
            throw new UncheckedIOException("encoding a warm-up image in memory failed", e);
        }
        return png.toByteArray();
    }
}
