package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.sun.management.OperatingSystemMXBean;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.neck.ImageFeatures;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.neck.VitDetNeck;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Times the full-size trunk and serving neck on random weights (not part of the test suite):
 * {@code java -Xmx1g -cp <test classpath> io.sam3stream.model.vision.FullSizeImageEncoderBenchmark [passes]}.
 * Prints the load time, then per pass the trunk's wall and CPU time, its wall time split into window and global
 * blocks, the neck's wall and CPU time, and the process's peak resident set.
 */
public final class FullSizeImageEncoderBenchmark {

    /** Process CPU time, all threads (the native intra-op threads included). */
    private static final OperatingSystemMXBean CPU =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private FullSizeImageEncoderBenchmark() {}

    public static void main(String[] args) throws IOException {
        int passes = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        Sam3Config config = Sam3Config.fullSize();
        try (NDManager model = NDManager.newBaseManager();
                RandomImageEncoderWeights weights = new RandomImageEncoderWeights(config, 42)) {
            long start = System.nanoTime();
            Params root = Params.root(weights, model);
            Params visionBackbone = root.sub("backbone.vision_backbone");
            VisionTrunk trunk = VisionTrunk.load(visionBackbone.sub("trunk"), config.vit());
            VitDetNeck neck = VitDetNeck.load(visionBackbone, config.dModel(), NeckLevels.USED);
            report("loaded %,d parameters in %.1f s, RSS %s", weights.parameterCount(), seconds(start),
                    status("VmRSS"));
            for (int pass = 1; pass <= passes; pass++) {
                try (NDManager run = model.newSubManager()) {
                    NDArray image = run.randomUniform(-1, 1, new Shape(1, 3, config.resolution(), config.resolution()));
                    BlockTimer timer = new BlockTimer(config);
                    long t0 = System.nanoTime();
                    long c0 = CPU.getProcessCpuTime();
                    NDArray trunkOut = trunk.forward(image, timer);
                    double trunkSeconds = seconds(t0);
                    double trunkCpu = (CPU.getProcessCpuTime() - c0) / 1e9;
                    long t1 = System.nanoTime();
                    long c1 = CPU.getProcessCpuTime();
                    try (ImageFeatures features = neck.forward(trunkOut, StageSink.NONE)) {
                        double neckSeconds = seconds(t1);
                        double neckCpu = (CPU.getProcessCpuTime() - c1) / 1e9;
                        report("pass %d: trunk %.1f s wall / %.1f s CPU (window blocks %.1f s, global blocks %.1f s),"
                                + " neck %.1f s wall / %.1f s CPU, peak RSS %s", pass, trunkSeconds, trunkCpu,
                                timer.windowSeconds, timer.globalSeconds, neckSeconds, neckCpu, status("VmHWM"));
                    }
                }
            }
        }
    }

    /** Attributes the time between consecutive block stages to window or global blocks. */
    private static final class BlockTimer implements StageSink {
        private final Sam3Config config;
        private long last = System.nanoTime();
        private double windowSeconds;
        private double globalSeconds;

        BlockTimer(Sam3Config config) {
            this.config = config;
        }

        @Override
        public void record(String name, NDArray value) {
            long now = System.nanoTime();
            if (name.startsWith("vit.block")) {
                double s = (now - last) / 1e9;
                if (config.vit().isGlobal(Integer.parseInt(name.substring("vit.block".length())))) {
                    globalSeconds += s;
                } else {
                    windowSeconds += s;
                }
            }
            last = now;
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static String status(String key) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith(key + ":"))
                .map(l -> l.substring(key.length() + 1).trim())
                .findFirst().orElse("?");
    }

    private static void report(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
