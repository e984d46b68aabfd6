package io.sam3stream.bench;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.ModuleClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Pipeline overhead with a tiny checkpoint, where the forward costs little and the host stages show: requests of a
 * 640×480 PNG with one prompt, with the image-feature cache off so that every request runs the backbone, flow through
 * {@link Sam3Segmenter#prepare} and {@link Sam3Segmenter#finish} on two host threads and {@link Sam3Segmenter#infer}
 * on one device thread, three records in flight, as the Kafka worker runs them. Reports requests per second, the
 * fraction of the wall time the device thread spent in {@code infer}, and the same requests run one after another
 * on one thread for comparison. Both are measured twice in one process, side by side: as the engine serves and with
 * its modules op by op, without their graphs and thread policy ({@link ComputeOptions#withOpByOpModules}).
 */
public final class PipelineBenchmark {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 480;
    /** Records in flight: one preparing, one on the device, one finishing. */
    private static final int IN_FLIGHT = 3;
    /**
     * Distinct pictures the requests cycle through. A worker holds only the records in flight, so the bench holds
     * few: hundreds of camera-sized PNGs held at once would fill the old generation with humongous arrays and keep
     * G1's concurrent marking running, a cost of the bench and not of the pipeline.
     */
    private static final int PICTURES = 8;

    /**
     * @param overlappedPerSecond requests per second through the overlapped stages
     * @param deviceBusy          fraction of the overlapped run's wall time spent in infer
     * @param sequentialPerSecond requests per second with the three stages run back to back on one thread
     * @param inferMsPerModule    milliseconds per request of each model module in the sequential run
     */
    public record Measurement(double overlappedPerSecond, double deviceBusy, double sequentialPerSecond,
            Map<String, Double> inferMsPerModule) {}

    /**
     * @param served  the engine as it serves
     * @param opByOp  the same engine with its prompt side op by op on every thread
     */
    public record Result(Measurement served, Measurement opByOp) {}

    private PipelineBenchmark() {}

    /**
     * @param model      a small model (the tiny golden {@code sam3-tiny.pt}, or the demo model)
     * @param threads    libtorch intra-op threads
     * @param requests   timed requests per measurement (as many again warm up)
     */
    public static Result run(ModelSource model, int threads, int requests, Consumer<String> log) {
        Settings settings = Settings.fromEnvironment()
                .with(Knob.SAM3_NUM_THREADS, Integer.toString(threads))
                .with(Knob.SAM3_IMAGE_CACHE_MAX, "0");
        try (Sam3Segmenter engine = EngineFactory.create(settings, model, log)) {
            List<byte[]> distinct = new ArrayList<>();
            for (int i = 0; i < PICTURES; i++) {
                distinct.add(SyntheticPicture.png(WIDTH, HEIGHT, i));
            }
            List<byte[]> pictures = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                pictures.add(distinct.get(i % PICTURES));
            }
            Measurement opByOp = measure(engine, ComputeOptions.OPTIMIZED.withOpByOpModules(), "op by op",
                    pictures, log);
            Measurement served = measure(engine, ComputeOptions.OPTIMIZED, "as served", pictures, log);
            return new Result(served, opByOp);
        }
    }

    private static Measurement measure(Sam3Segmenter engine, ComputeOptions options, String label,
            List<byte[]> pictures, Consumer<String> log) {
        int requests = pictures.size();
        Map<String, Double> moduleMs = new LinkedHashMap<>();
        double sequential;
        try (ComputeOptions.Scope scope = options.activate()) {
            sequential(engine, pictures, new LinkedHashMap<>());
            sequential = requests / sequential(engine, pictures, moduleMs);
        }
        moduleMs.replaceAll((module, ms) -> ms / requests);
        log.accept(String.format(Locale.ROOT, "%s, one thread, stage after stage: %.1f requests/s; per request, ms: %s",
                label, sequential, ForwardBenchmark.formatModules(moduleMs)));
        overlapped(engine, options, pictures, new AtomicLong());
        AtomicLong deviceNanos = new AtomicLong();
        double seconds = overlapped(engine, options, pictures, deviceNanos);
        double busy = deviceNanos.get() / 1e9 / seconds;
        log.accept(String.format(Locale.ROOT, "%s, overlapped (2 host threads, 1 device thread, %d in flight): %.1f"
                + " requests/s, device busy %.0f %%", label, IN_FLIGHT, requests / seconds, 100 * busy));
        return new Measurement(requests / seconds, busy, sequential, moduleMs);
    }

    /** Runs the requests stage after stage; adds each module's milliseconds to {@code moduleMs}. */
    private static double sequential(Sam3Segmenter engine, List<byte[]> pictures, Map<String, Double> moduleMs) {
        long start = System.nanoTime();
        try (ModuleClock clock = ModuleClock.start()) {
            for (byte[] png : pictures) {
                PreparedRequest prepared = engine.prepare(SegmentRequest.of(png, "a red car"));
                clock.resume();
                Inference inference = engine.infer(prepared);
                ModuleClock.lap("detections");
                engine.finish(inference);
            }
            clock.seconds().forEach((module, s) -> moduleMs.merge(module, 1e3 * s, Double::sum));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static double overlapped(Sam3Segmenter engine, ComputeOptions options, List<byte[]> pictures,
            AtomicLong deviceNanos) {
        ExecutorService host = Executors.newFixedThreadPool(2);
        ExecutorService device = Executors.newSingleThreadExecutor();
        try {
            Semaphore slots = new Semaphore(IN_FLIGHT);
            List<CompletableFuture<?>> done = new ArrayList<>();
            long start = System.nanoTime();
            for (byte[] png : pictures) {
                slots.acquireUninterruptibly();
                done.add(CompletableFuture.supplyAsync(() -> engine.prepare(SegmentRequest.of(png, "a red car")), host)
                        .thenApplyAsync(prepared -> {
                            long t = System.nanoTime();
                            try (ComputeOptions.Scope scope = options.activate()) {
                                return engine.infer(prepared);
                            } finally {
                                deviceNanos.addAndGet(System.nanoTime() - t);
                            }
                        }, device)
                        .thenApplyAsync(engine::finish, host)
                        .whenComplete((response, failure) -> slots.release()));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
            return (System.nanoTime() - start) / 1e9;
        } finally {
            host.shutdownNow();
            device.shutdownNow();
        }
    }
}
