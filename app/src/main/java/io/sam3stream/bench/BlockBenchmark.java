package io.sam3stream.bench;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.VitConfig;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.vision.AxialRope;
import io.sam3stream.model.vision.VitBlock;
import io.sam3stream.model.vision.WindowPartition;
import io.sam3stream.weights.procedural.ProceduralWeights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One windowed and one global block of the full-size ViT (procedural weights of blocks 0 and 7) under each step of
 * the optimisations, from the control to the engine as it serves: the quick way to see what each measure is worth
 * without a full forward. The trunk runs 28 windowed and 4 global blocks.
 */
public final class BlockBenchmark {

    /**
     * Each option set and what it adds to the one before. The last is the engine as it serves, as far as ViT blocks
     * go: the prompt side's measures (graphs, its thread policy) do not act on them, so they are left out of its
     * label.
     */
    public static final List<ComputeOptions> STEPS = List.of(
            ComputeOptions.PLAIN,
            new ComputeOptions(true, false, false, false, false, false),
            new ComputeOptions(true, true, false, false, false, false),
            new ComputeOptions(true, true, true, false, false, false),
            ComputeOptions.OPTIMIZED.withOpByOpModules());

    /** Median wall and CPU milliseconds of one windowed and one global block under some options. */
    public record Step(ComputeOptions options, Timing windowed, Timing global) {

        /** Trunk estimate from wall times: 28 windowed + 4 global blocks, seconds. */
        public double trunkSeconds() {
            return (28 * windowed.wallMs() + 4 * global.wallMs()) / 1e3;
        }

        /** Trunk estimate from CPU times, CPU seconds. */
        public double trunkCpuSeconds() {
            return (28 * windowed.cpuMs() + 4 * global.cpuMs()) / 1e3;
        }
    }

    /** Median wall and CPU milliseconds of one block. */
    public record Timing(double wallMs, double cpuMs) {}

    private BlockBenchmark() {}

    /** @param runs timed runs per block and step, after one warm-up round */
    public static List<Step> run(int runs, Consumer<String> log) {
        VitConfig vit = Sam3Config.fullSize().vit();
        int window = vit.windowSize();
        int grid = vit.grid();
        try (NDManager manager = NDManager.newBaseManager();
                ProceduralWeights weights = ProceduralWeights.sam3Image()) {
            Params trunk = Params.root(weights, manager).sub("backbone.vision_backbone.trunk");
            int globalIndex = vit.globalBlocks()[0];
            VitBlock windowed = VitBlock.load(trunk.sub("blocks.0"), vit.numHeads(), window,
                    AxialRope.create(manager, window, vit.headDim(), 1f));
            VitBlock global = VitBlock.load(trunk.sub("blocks." + globalIndex), vit.numHeads(), 0,
                    AxialRope.create(manager, grid, vit.headDim(), (float) ((double) window / grid)));
            NDArray map = manager.randomNormal(new Shape(1, grid, grid, vit.embedDim()));
            NDArray windows = WindowPartition.partition(map, window)
                    .reshape(-1, (long) window * window, vit.embedDim());
            // round-robin over the steps, so that load from other work on the machine hits every step alike
            double[][][] samples = new double[STEPS.size()][4][runs]; // windowed wall, cpu; global wall, cpu
            for (int run = -1; run < runs; run++) {
                for (int s = 0; s < STEPS.size(); s++) {
                    ComputeOptions options = STEPS.get(s);
                    try (ComputeOptions.Scope scope = options.activate()) {
                        double[] w = time(() -> options.windowLayoutReuse()
                                ? windowed.forwardSequences(windows)
                                : windowed.forward(map));
                        double[] g = time(() -> global.forward(map));
                        if (run >= 0) { // run -1 warms up
                            samples[s][0][run] = w[0];
                            samples[s][1][run] = w[1];
                            samples[s][2][run] = g[0];
                            samples[s][3][run] = g[1];
                        }
                    }
                }
            }
            List<Step> steps = new ArrayList<>();
            for (int s = 0; s < STEPS.size(); s++) {
                double[][] t = samples[s];
                Step step = new Step(STEPS.get(s), new Timing(median(t[0]), median(t[1])),
                        new Timing(median(t[2]), median(t[3])));
                steps.add(step);
                log.accept(String.format(Locale.ROOT, "%-50s windowed block %5.0f ms (cpu %5.0f), global block"
                        + " %5.0f ms (cpu %5.0f); 28 + 4 blocks: %5.1f s, cpu %5.1f s", step.options().describe(),
                        step.windowed().wallMs(), step.windowed().cpuMs(), step.global().wallMs(),
                        step.global().cpuMs(), step.trunkSeconds(), step.trunkCpuSeconds()));
            }
            return steps;
        }
    }

    /** Wall and process CPU milliseconds of one block call. */
    private static double[] time(Supplier<NDArray> block) {
        long wall = System.nanoTime();
        long cpu = CpuClock.nanos();
        block.get().close();
        return new double[] {(System.nanoTime() - wall) / 1e6, (CpuClock.nanos() - cpu) / 1e6};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
