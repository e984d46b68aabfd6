package io.sam3stream.bench;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.StageTimings;
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
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Pipeline overhead with a tiny checkpoint, where the forward costs little and the host stages show: requests of a
 * 640×480 PNG with one prompt, with the image-feature cache off so that every request runs the backbone, flow through
 * {@link Sam3Segmenter#prepare} and {@link Sam3Segmenter#finish} on two host threads and {@link Sam3Segmenter#infer}
 * on one device thread, three records in flight, as the Kafka worker runs them. Reports requests per second, the
 * fraction of the wall time the device thread spent in {@code infer}, the CPU time a request costs the host
 * threads, the device thread and the rest of the process (which bounds the rate on a machine with few cores,
 * however well the stages overlap), and the same requests run one after another on one thread for comparison,
 * with the host stages' milliseconds. Both are measured twice in one process, side by side: as the engine serves and with
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

    private static final String HOST_THREADS = "pipeline-host";
    private static final String DEVICE_THREAD = "pipeline-device";

    /**
     * @param overlappedPerSecond requests per second through the overlapped stages
     * @param deviceBusy          fraction of the overlapped run's wall time spent in infer
     * @param cpu                 CPU time per request in the overlapped run
     * @param sequentialPerSecond requests per second with the three stages run back to back on one thread
     * @param hostMsPerStage      milliseconds per request of each host stage in the sequential run
     * @param inferMsPerModule    milliseconds per request of each model module in the sequential run
     */
    public record Measurement(double overlappedPerSecond, double deviceBusy, CpuPerRequest cpu,
            double sequentialPerSecond, Map<String, Double> hostMsPerStage, Map<String, Double> inferMsPerModule) {}

    /**
     * CPU milliseconds one request cost in the overlapped run.
     *
     * @param host   the two host threads ({@code prepare} and {@code finish})
     * @param device the device thread ({@code infer})
     * @param rest   every other thread of the process: JIT compilers, garbage collector, native threads
     */
    public record CpuPerRequest(double host, double device, double rest) {

        public double total() {
            return host + device + rest;
        }

        /** The rate {@code cores} fully used CPUs could serve at this cost, whatever the overlap. */
        public double boundPerSecond(int cores) {
            return cores * 1e3 / total();
        }
    }

    /**
     * @param served  the engine as it serves
     * @param opByOp  the same engine with its prompt side op by op on every thread
     */
    public record Result(Measurement served, Measurement opByOp) {}

    private PipelineBenchmark() {}

    /**
     * @param model      a small model (the tiny golden {@code sam3-tiny.pt}, or the demo model)
     * @param threads    libtorch intra-op threads (0: as a worker chooses them for the model)
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
        Map<String, Double> hostMs = new LinkedHashMap<>();
        double sequential;
        try (ComputeOptions.Scope scope = options.activate()) {
            sequential(engine, pictures, new LinkedHashMap<>(), new LinkedHashMap<>());
            sequential = requests / sequential(engine, pictures, hostMs, moduleMs);
        }
        moduleMs.replaceAll((module, ms) -> ms / requests);
        hostMs.replaceAll((stage, ms) -> ms / requests);
        log.accept(String.format(Locale.ROOT, "%s, one thread, stage after stage: %.1f requests/s; per request, ms:"
                + " host %s, infer %s", label, sequential, ForwardBenchmark.formatModules(hostMs),
                ForwardBenchmark.formatModules(moduleMs)));
        overlapped(engine, options, pictures, new AtomicLong(), new CpuPerRequest[1]);
        AtomicLong deviceNanos = new AtomicLong();
        CpuPerRequest[] cpuOut = new CpuPerRequest[1];
        double seconds = overlapped(engine, options, pictures, deviceNanos, cpuOut);
        CpuPerRequest cpu = cpuOut[0];
        double busy = deviceNanos.get() / 1e9 / seconds;
        log.accept(String.format(Locale.ROOT, "%s, overlapped (2 host threads, 1 device thread, %d in flight): %.1f"
                + " requests/s, device busy %.0f %%; CPU per request %.2f ms (host threads %.2f, device thread %.2f,"
                + " rest %.2f)", label, IN_FLIGHT, requests / seconds, 100 * busy, cpu.total(), cpu.host(),
                cpu.device(), cpu.rest()));
        return new Measurement(requests / seconds, busy, cpu, sequential, hostMs, moduleMs);
    }

    private static CpuPerRequest cpuPerRequest(ThreadCpu before, ThreadCpu after, int requests) {
        Map<String, Double> byGroup = after.millisPerUnitSince(before, requests);
        double host = byGroup.getOrDefault(HOST_THREADS + "-N", 0.0);
        double device = byGroup.getOrDefault(DEVICE_THREAD + "-N", 0.0);
        return new CpuPerRequest(host, device, after.processMillisPerUnitSince(before, requests) - host - device);
    }

    /**
     * Runs the requests stage after stage; adds each host stage's milliseconds to {@code hostMs} and each model
     * module's to {@code moduleMs}.
     */
    private static double sequential(Sam3Segmenter engine, List<byte[]> pictures, Map<String, Double> hostMs,
            Map<String, Double> moduleMs) {
        long start = System.nanoTime();
        try (ModuleClock clock = ModuleClock.start()) {
            for (byte[] png : pictures) {
                long prepareStart = System.nanoTime();
                PreparedRequest prepared = engine.prepare(SegmentRequest.of(png, "a red car"));
                long prepareEnd = System.nanoTime();
                clock.resume();
                Inference inference = engine.infer(prepared);
                ModuleClock.lap("detections");
                SegmentResponse response = engine.finish(inference);
                StageTimings t = response.timings();
                hostMs.merge("decode", t.decode(), Double::sum);
                hostMs.merge("preprocess", t.preprocess(), Double::sum);
                // the pixel digest (the image cache's key) and the request's checks
                hostMs.merge("rest_of_prepare", (prepareEnd - prepareStart) / 1e6 - t.decode() - t.preprocess(),
                        Double::sum);
                hostMs.merge("finish", t.postprocess(), Double::sum);
            }
            clock.seconds().forEach((module, s) -> moduleMs.merge(module, 1e3 * s, Double::sum));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * Runs the requests through the overlapped stages; adds the device thread's time in {@code infer} to
     * {@code deviceNanos} and stores the CPU per request in {@code cpu[0]}, read while the stage threads are alive.
     */
    private static double overlapped(Sam3Segmenter engine, ComputeOptions options, List<byte[]> pictures,
            AtomicLong deviceNanos, CpuPerRequest[] cpu) {
        ExecutorService host = Executors.newFixedThreadPool(2, named(HOST_THREADS));
        ExecutorService device = Executors.newSingleThreadExecutor(named(DEVICE_THREAD));
        try {
            Semaphore slots = new Semaphore(IN_FLIGHT);
            List<CompletableFuture<?>> done = new ArrayList<>();
            ThreadCpu cpuBefore = ThreadCpu.snapshot();
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
            double seconds = (System.nanoTime() - start) / 1e9;
            cpu[0] = cpuPerRequest(cpuBefore, ThreadCpu.snapshot(), pictures.size());
            return seconds;
        } finally {
            host.shutdownNow();
            device.shutdownNow();
        }
    }

    /** Threads named {@code prefix-1}, {@code prefix-2}, ...: {@link ThreadCpu} sums them as {@code prefix-N}. */
    private static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> new Thread(runnable, prefix + "-" + count.incrementAndGet());
    }
}
