package io.sam3stream.cli;

import io.sam3stream.bench.BlockBenchmark;
import io.sam3stream.bench.ForwardBenchmark;
import io.sam3stream.bench.ImagingBenchmark;
import io.sam3stream.bench.JobLookupBenchmark;
import io.sam3stream.bench.LabelBenchmark;
import io.sam3stream.bench.LoadGenerator;
import io.sam3stream.bench.MachineInfo;
import io.sam3stream.bench.OverheadBenchmark;
import io.sam3stream.bench.PerformanceGoals;
import io.sam3stream.bench.PipelineBenchmark;
import io.sam3stream.bench.PrecisionBenchmark;
import io.sam3stream.bench.PromptPathBenchmark;
import io.sam3stream.bench.ProcessMemory;
import io.sam3stream.bench.ResultTable;
import io.sam3stream.bench.UpstreamAnchor;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.CpuFeatures;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.MklKernels;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PrecisionChoice;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sam3 bench}: the end-to-end measurements of {@code docs/PERFORMANCE.md}, each printed beside its reference
 * as a ratio. Without a subcommand it runs them all (the full-size forward takes several minutes) and prints one
 * table; each subcommand runs one part.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measures the engine against upstream's figures and against a control run in the same"
                + " process, and prints a Markdown table of ratios. Subcommands run one part each."},
        subcommands = {BenchCommand.Forward.class, BenchCommand.Imaging.class, BenchCommand.Pipeline.class,
            BenchCommand.Blocks.class, BenchCommand.Precision.class, BenchCommand.Http.class,
            BenchCommand.Jobs.class, BenchCommand.Label.class, BenchCommand.PromptPath.class})
public final class BenchCommand implements Callable<Integer> {

    /**
     * Intra-op threads of the small-model measurements: 0, the worker's own default, which gives a small model one
     * thread ({@link io.sam3stream.engine.IntraOpThreads}), so that they measure what a worker runs.
     */
    static final String WORKER_THREADS = "0";

    /** Bounds of the options: wide enough for any measurement, narrow enough that none overflows or never ends. */
    private static final int MAX_THREADS = 256;
    private static final int MAX_RUNS = 1000;
    private static final int MAX_REQUESTS = 10_000_000;
    private static final int MAX_IN_FLIGHT = 10_000;
    private static final double MAX_RATE = 100_000;
    private static final double MAX_SECONDS = 86_400;

    /**
     * Names of the rows that {@code bench prompt-path} reads back from its children's tables: written by
     * {@link #forwardRows}, {@link #extraPromptRows} and {@link #pipelineRows}, found by {@link #promptPathRows}.
     */
    private static final String FORWARD_ROW = "full-size forward, 1008², 1 prompt, ";
    private static final String MODULE_ROW = "  module ";
    private static final String EXTRA_PROMPT_ROW = "prompt ";
    private static final String TINY_THROUGHPUT_ROW = "tiny checkpoint throughput, overlapped stages";

    /** The tiny golden checkpoint, where it lies in a source checkout. */
    static final Path TINY_CHECKPOINT = Path.of("engine/src/test/resources/golden/sam3-tiny/sam3-tiny.pt");

    @Spec
    private CommandSpec spec;

    @Mixin
    private RowsFile rowsFile;

    @Option(names = "--threads", defaultValue = "2",
            description = "libtorch intra-op threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--passes", defaultValue = "1",
            description = "Timed full-size forwards per mode (default: ${DEFAULT-VALUE}).")
    private int passes;

    @Option(names = "--no-control", description = "Skip the control (every optimisation off) of the forward.")
    private boolean noControl;

    @Option(names = "--checkpoint", paramLabel = "<sam3-tiny.pt>",
            description = "Small checkpoint for the pipeline throughput (default: the tiny golden one of a source"
                    + " checkout, else the demo model).")
    private Path checkpoint;

    @Override
    public Integer call() throws Exception {
        within(spec, "--threads", threads, 1, MAX_THREADS);
        within(spec, "--passes", passes, 1, MAX_RUNS);
        return measure(spec, threads, rowsFile, (table, log) -> {
            forwardRows(table, ForwardBenchmark.run(
                    new ForwardBenchmark.Options(threads, passes, !noControl, 3, true, false), log));
            imagingRows(table, ImagingBenchmark.run(10, 15, log));
            int smallModelThreads = Integer.parseInt(WORKER_THREADS);
            pipelineRows(table, PipelineBenchmark.run(smallModel(checkpoint, log), smallModelThreads, 200, log));
            OverheadBenchmark.Load load = Http.defaultLoad();
            httpRows(table, load, OverheadBenchmark.againstEmbeddedStack(smallModel(checkpoint, log),
                    smallModelThreads, load, log));
            return 0;
        });
    }

    /** {@code sam3 bench forward}. */
    @Command(name = "forward", mixinStandardHelpOptions = true,
            description = {"Full-size forward (procedural weights, 1008x1008, one prompt) per module in the precision"
                    + " SAM3_PRECISION selects, side by side with an fp32 engine on the same weights when that"
                    + " precision is not fp32, the control (every optimisation off, fp32) in the same process, extra"
                    + " prompts 2..4 on the cached image, and peak resident memory (with --no-fp32 and"
                    + " --no-control, so that one model is in the process)."})
    static final class Forward implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--threads", defaultValue = "2", description = "libtorch intra-op threads.")
        private int threads;

        @Option(names = "--passes", defaultValue = "1", description = "Timed forwards per mode.")
        private int passes;

        @Option(names = "--no-control", description = "Skip the control (every optimisation off).")
        private boolean noControl;

        @Option(names = "--extra-prompts", defaultValue = "3", description = "Prompts after the first (0..3).")
        private int extraPrompts;

        @Option(names = "--no-fp32", description = "Do not build an fp32 engine beside a bf16 one.")
        private boolean noFp32;

        @Option(names = "--op-by-op", description = "Also run every pass with the modules operator by operator"
                + " on every thread (their compiled graphs and thread policy off), side by side.")
        private boolean opByOp;

        @Override
        public Integer call() throws Exception {
            within(spec, "--threads", threads, 1, MAX_THREADS);
            within(spec, "--passes", passes, 1, MAX_RUNS);
            within(spec, "--extra-prompts", extraPrompts, 0, ForwardBenchmark.MAX_EXTRA_PROMPTS);
            return measure(spec, threads, rowsFile, (table, log) -> {
                forwardRows(table, ForwardBenchmark.run(
                        new ForwardBenchmark.Options(threads, passes, !noControl, extraPrompts, !noFp32, opByOp), log));
                return 0;
            });
        }
    }

    /** {@code sam3 bench imaging}. */
    @Command(name = "imaging", mixinStandardHelpOptions = true,
            description = {"Decode + preprocess of a 1920x1080 PNG; upsample + PNG-encode of 50 masks at 1920x1080."})
    static final class Imaging implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Override
        public Integer call() throws Exception {
            return measure(spec, 0, rowsFile, (table, log) -> {
                imagingRows(table, ImagingBenchmark.run(10, 15, log));
                return 0;
            });
        }
    }

    /** {@code sam3 bench pipeline}. */
    @Command(name = "pipeline", mixinStandardHelpOptions = true,
            description = {"Requests per second through prepare / infer / finish with a tiny checkpoint, overlapped"
                    + " as the Kafka worker runs them, and the device-busy fraction."})
    static final class Pipeline implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--threads", defaultValue = WORKER_THREADS,
                description = "libtorch intra-op threads; 0 = as a worker chooses them for the model"
                        + " (default: ${DEFAULT-VALUE}).")
        private int threads;

        @Option(names = "--checkpoint", paramLabel = "<sam3-tiny.pt>",
                description = "Small checkpoint (default: the tiny golden one of a source checkout, else the demo model).")
        private Path checkpoint;

        @Option(names = "--requests", defaultValue = "200", description = "Timed requests (as many warm up).")
        private int requests;

        @Override
        public Integer call() throws Exception {
            within(spec, "--threads", threads, 0, MAX_THREADS);
            within(spec, "--requests", requests, 1, MAX_REQUESTS);
            return measure(spec, threads, rowsFile, (table, log) -> {
                pipelineRows(table, PipelineBenchmark.run(smallModel(checkpoint, log), threads, requests, log));
                return 0;
            });
        }
    }

    /** {@code sam3 bench blocks}. */
    @Command(name = "blocks", mixinStandardHelpOptions = true,
            description = {"One windowed and one global full-size ViT block under each optimisation step, from the"
                    + " control to the engine as it serves."})
    static final class Blocks implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--threads", defaultValue = "2", description = "libtorch intra-op threads.")
        private int threads;

        @Option(names = "--runs", defaultValue = "3", description = "Timed runs per block and step.")
        private int runs;

        @Override
        public Integer call() throws Exception {
            within(spec, "--threads", threads, 1, MAX_THREADS);
            within(spec, "--runs", runs, 1, MAX_RUNS);
            return measure(spec, threads, rowsFile, (table, log) -> {
                List<BlockBenchmark.Step> steps = BlockBenchmark.run(runs, log);
                BlockBenchmark.Step control = steps.get(0);
                for (BlockBenchmark.Step step : steps.subList(1, steps.size())) {
                    String what = "ViT blocks (28 windowed + 4 global), " + step.options().describe();
                    sideBySide(table, what, "control", step.trunkSeconds(), control.trunkSeconds(),
                            step.trunkCpuSeconds(), control.trunkCpuSeconds(), BenchCommand::seconds);
                }
                return 0;
            });
        }
    }

    /** {@code sam3 bench precision}. */
    @Command(name = "precision", mixinStandardHelpOptions = true,
            description = {"The full-size ViT's operators (fc1, the MLP, global and windowed attention) and the"
                    + " segmentation head's 3x3 convolution in float32 and in bfloat16, the text encoder's MLPs for a"
                    + " short prompt in bfloat16 with plain and blocked matrices, the mask product by MKL and by"
                    + " oneDNN, the ViT's attentions and the"
                    + " fusion encoder's self-attention in sam3's native bfloat16 kernel (on a CPU with"
                    + " AVX512-BF16), and the ViT's linear layers"
                    + " in fbgemm's dynamic int8, interleaved, with each reduced"
                    + " form's distance from float32, the CPU's flags and what SAM3_PRECISION=auto picks here."
                    + " FBGEMM_ENABLE_INSTRUCTIONS=AVX2 ONEDNN_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2 hold the"
                    + " kernels to AVX2 on a newer CPU."})
    static final class Precision implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--threads", defaultValue = "2", description = "libtorch intra-op threads.")
        private int threads;

        @Option(names = "--runs", defaultValue = "3", description = "Timed runs of each form.")
        private int runs;

        @Override
        public Integer call() throws Exception {
            within(spec, "--threads", threads, 1, MAX_THREADS);
            within(spec, "--runs", runs, 1, MAX_RUNS);
            return measure(spec, threads, rowsFile, (table, log) -> {
                log.accept("SAM3_PRECISION=auto picks "
                        + PrecisionChoice.resolve("auto", CpuFeatures.host()).describe());
                for (PrecisionBenchmark.Comparison c : PrecisionBenchmark.run(runs, log)) {
                    sideBySide(table, c.operator() + ", " + c.reducedForm(), "fp32", c.reducedMs(), c.fp32Ms(),
                            c.reducedCpuMs(), c.fp32CpuMs(), BenchCommand::millis2);
                }
                return 0;
            });
        }
    }

    /** {@code sam3 bench http}. */
    @Command(name = "http", mixinStandardHelpOptions = true,
            description = {"What the facade and Kafka add to the engine: POST /predict at a steady rate (an open-loop"
                    + " load that records every latency) against the one-command stack, started here with a tiny"
                    + " checkpoint unless --url names a running one; a 640x480 PNG and one prompt per request."})
    static final class Http implements Callable<Integer> {
        private static final String RATE = "50";
        private static final String SECONDS = "60";
        private static final String WARMUP_SECONDS = "60";
        private static final String MASK_FORMAT = "png";
        private static final String PROMPT = "a red car";

        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--url", paramLabel = "<base URL>",
                description = "A running stack's facade, e.g. http://127.0.0.1:20000 (default: start one here).")
        private URI url;

        @Option(names = "--threads", defaultValue = WORKER_THREADS,
                description = "libtorch intra-op threads of the worker started here; 0 = as a worker chooses them"
                        + " for the model (default: ${DEFAULT-VALUE}).")
        private int threads;

        @Option(names = "--checkpoint", paramLabel = "<sam3-tiny.pt>",
                description = "Small checkpoint of the stack started here (default: the tiny golden one of a source"
                        + " checkout, else the demo model).")
        private Path checkpoint;

        @Option(names = "--rate", defaultValue = RATE, description = "Requests per second (default: ${DEFAULT-VALUE}).")
        private double rate;

        @Option(names = "--seconds", defaultValue = SECONDS,
                description = "Measured seconds (default: ${DEFAULT-VALUE}).")
        private double seconds;

        @Option(names = "--warmup-seconds", defaultValue = WARMUP_SECONDS,
                description = "Seconds of load before measuring (default: ${DEFAULT-VALUE}).")
        private double warmupSeconds;

        @Option(names = "--mask-format", defaultValue = MASK_FORMAT,
                description = "png, rle or none (default: ${DEFAULT-VALUE}).")
        private String maskFormat;

        static OverheadBenchmark.Load defaultLoad() {
            return new OverheadBenchmark.Load(Double.parseDouble(RATE), Double.parseDouble(SECONDS),
                    Double.parseDouble(WARMUP_SECONDS), PROMPT, MASK_FORMAT);
        }

        @Override
        public Integer call() throws Exception {
            within(spec, "--threads", threads, 0, MAX_THREADS);
            positive(spec, "--rate", rate, MAX_RATE);
            positive(spec, "--seconds", seconds, MAX_SECONDS);
            within(spec, "--warmup-seconds", warmupSeconds, 0, MAX_SECONDS);
            return measure(spec, threads, rowsFile, (table, log) -> {
                OverheadBenchmark.Load load =
                        new OverheadBenchmark.Load(rate, seconds, warmupSeconds, PROMPT, maskFormat);
                OverheadBenchmark.Measurement result = url == null
                        ? OverheadBenchmark.againstEmbeddedStack(smallModel(checkpoint, log), threads, load, log)
                        : OverheadBenchmark.against(url, load, log);
                httpRows(table, load, result);
                return result.load().failed() == 0 ? 0 : 1;
            });
        }
    }

    /** {@code sam3 bench prompt-path}. */
    @Command(name = "prompt-path", mixinStandardHelpOptions = true,
            description = {"The prompt path's goals as stated: the full-size forward with three extra prompts"
                    + " (bench forward --passes 1 --no-control --no-fp32 --extra-prompts 3), --runs processes per"
                    + " precision, the precisions alternating, quiet and then beside a CPU-bound neighbour (bench"
                    + " blocks in a loop); then the tiny pipeline (bench pipeline), --runs processes. Each process"
                    + " prints its own table; a summary of every goal follows. About a minute per forward process"
                    + " on two cores, twice that beside the neighbour."})
    static final class PromptPath implements Callable<Integer> {
        /** The small-operator modules whose goal is upstream's time, as the forward's table names them. */
        private static final List<String> SMALL_MODULES =
                List.of("geometry_encoder", "decoder", "dot_prod_scoring", "segmentation_head");

        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--runs", defaultValue = "3",
                description = "Processes per precision and condition, and pipeline processes (default:"
                        + " ${DEFAULT-VALUE}).")
        private int runs;

        @Option(names = "--precision", paramLabel = "fp32|bf16",
                description = "A SAM3_PRECISION to measure; repeatable (default: fp32, and bf16 where auto picks"
                        + " it on this CPU).")
        private List<String> precisions;

        @Option(names = "--no-neighbour", description = "Measure on a quiet machine only.")
        private boolean noNeighbour;

        @Option(names = "--neighbour-lead", defaultValue = "30", paramLabel = "<seconds>",
                description = "Seconds the neighbour runs before the first measurement beside it (default:"
                        + " ${DEFAULT-VALUE}).")
        private int neighbourLead;

        @Option(names = "--requests", defaultValue = "300",
                description = "Timed requests per pipeline run (default: ${DEFAULT-VALUE}).")
        private int requests;

        @Override
        public Integer call() throws Exception {
            within(spec, "--runs", runs, 1, MAX_RUNS);
            within(spec, "--neighbour-lead", neighbourLead, 0, MAX_SECONDS);
            within(spec, "--requests", requests, 1, MAX_REQUESTS);
            List<String> measured = precisions != null ? precisions
                    : PrecisionChoice.resolve("auto", CpuFeatures.host()).precision().isFp32() ? List.of("fp32")
                    : List.of("fp32", "bf16");
            for (String p : measured) {
                if (!p.equals("fp32") && !p.equals("bf16")) {
                    throw new ParameterException(spec.commandLine(), "--precision must be fp32 or bf16, not " + p);
                }
            }
            PromptPathBenchmark.Options options = new PromptPathBenchmark.Options(runs, List.copyOf(measured),
                    !noNeighbour, Duration.ofSeconds(neighbourLead), requests);
            return measure(spec, 0, rowsFile, (table, log) -> {
                promptPathRows(table, PromptPathBenchmark.run(options, log));
                return 0;
            });
        }
    }

    /** {@code sam3 bench jobs}. */
    @Command(name = "jobs", mixinStandardHelpOptions = true,
            description = {"GET /v1/jobs/{id} on loopback with many jobs stored: an embedded broker, registry and"
                    + " facade started here (no worker: the jobs are results produced straight to the results"
                    + " topic), random ids read one after another from one client."})
    static final class Jobs implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--jobs", defaultValue = "10000", description = "Jobs stored (default: ${DEFAULT-VALUE}).")
        private int jobs;

        @Option(names = "--requests", defaultValue = "20000",
                description = "Timed GETs (default: ${DEFAULT-VALUE}).")
        private int requests;

        @Override
        public Integer call() throws Exception {
            within(spec, "--jobs", jobs, 1, MAX_REQUESTS);
            within(spec, "--requests", requests, 1, MAX_REQUESTS);
            return measure(spec, 0, rowsFile, (table, log) -> {
                JobLookupBenchmark.Result r = JobLookupBenchmark.run(jobs, requests, log);
                table.add(new ResultTable.Row(String.format(Locale.ROOT, "GET /v1/jobs/{id} p99, %,d jobs stored",
                        r.stored()), millis2(r.millis(99)), "target " + millis2(PerformanceGoals.JOB_GET_P99_MS),
                        r.millis(99) / PerformanceGoals.JOB_GET_P99_MS, 1.0));
                table.note("  latency", OverheadBenchmark.percentiles(r.latencyMicros()), "-");
                table.note("  timed GETs; bytes of one stored result", r.latencyMicros().getTotalCount() + "; "
                        + r.resultBytes(), "-");
                return 0;
            });
        }
    }

    /** {@code sam3 bench label}. */
    @Command(name = "label", mixinStandardHelpOptions = true,
            description = {"sam3 label --kafka with the tiny checkpoint: one worker against two in one consumer"
                    + " group (each its own process, the cores split between them), the same pictures, one run."})
    static final class Label implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private RowsFile rowsFile;

        @Option(names = "--images", defaultValue = "60", description = "Pictures per configuration (default:"
                + " ${DEFAULT-VALUE}).")
        private int images;

        @Option(names = "--cores", defaultValue = "2",
                description = "Cores split between the workers of a configuration (default: ${DEFAULT-VALUE}).")
        private int cores;

        @Option(names = "--in-flight", defaultValue = "4", description = "Images in flight per worker (default:"
                + " ${DEFAULT-VALUE}).")
        private int inFlight;

        @Override
        public Integer call() throws Exception {
            within(spec, "--images", images, 1, MAX_REQUESTS);
            within(spec, "--cores", cores, 1, MAX_THREADS);
            within(spec, "--in-flight", inFlight, 1, MAX_IN_FLIGHT);
            if (!Files.isRegularFile(TINY_CHECKPOINT)) {
                spec.commandLine().getErr().println("sam3 bench label needs the tiny checkpoint of a source checkout"
                        + " (" + TINY_CHECKPOINT + "); run it from the repository root");
                return 2;
            }
            return measure(spec, 0, rowsFile, (table, log) -> {
                List<LabelBenchmark.Measurement> runs = LabelBenchmark.run(TINY_CHECKPOINT,
                        TINY_CHECKPOINT.resolveSibling("config.json"), List.of(1, 2), cores, images, inFlight, log);
                LabelBenchmark.Measurement one = runs.get(0);
                for (LabelBenchmark.Measurement m : runs) {
                    table.add(new ResultTable.Row(String.format(Locale.ROOT,
                            "sam3 label --kafka, %d worker(s) × %d thread(s), %d images", m.workers(),
                            m.threadsPerWorker(), m.images()), String.format(Locale.ROOT, "%.2f images/s",
                            m.imagesPerSecond()), String.format(Locale.ROOT, "1 worker %.2f images/s",
                            one.imagesPerSecond()), m.imagesPerSecond() / one.imagesPerSecond(), Double.NaN));
                }
                return 0;
            });
        }
    }

    /**
     * {@code --rows-json}: the table's rows also as a JSON file, for a command that runs this one in a process of its
     * own and reads its figures back ({@code sam3 bench prompt-path}).
     */
    static final class RowsFile {
        @Option(names = "--rows-json", paramLabel = "<file>",
                description = "Also write the table's rows to this JSON file.")
        private Path path;

        void write(ResultTable table) throws IOException {
            if (path != null) {
                table.writeRows(path);
            }
        }
    }

    /** Refuses an option value outside {@code min..max} before anything is built or measured. */
    private static void within(CommandSpec spec, String option, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new ParameterException(spec.commandLine(), option + " must be within " + number(min) + ".."
                    + number(max) + ", not " + number(value));
        }
    }

    /** Refuses an option value that is not above 0 and at most {@code max}. */
    private static void positive(CommandSpec spec, String option, double value, double max) {
        if (!(value > 0 && value <= max)) {
            throw new ParameterException(spec.commandLine(), option + " must be above 0 and at most " + number(max)
                    + ", not " + number(value));
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : Double.toString(value);
    }

    /** What a benchmark command measures: rows into the table, progress lines to the log; its exit status. */
    @FunctionalInterface
    private interface Measurement {
        int fill(ResultTable table, Consumer<String> log) throws Exception;
    }

    /**
     * Every benchmark command's frame: libtorch's threads set (when {@code threads} is positive), the machine line,
     * progress lines while it measures, then the load average and the table.
     */
    private static int measure(CommandSpec spec, int threads, RowsFile rowsFile, Measurement measurement)
            throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        // before libtorch's first product, as a worker does at start
        MklKernels mklKernels = MklKernels.apply(Settings.fromEnvironment());
        if (threads > 0) {
            EngineFactory.applyThreads(threads);
        }
        out.println("machine: " + MachineInfo.describe(mklKernels));
        out.flush();
        ResultTable table = new ResultTable();
        int status = measurement.fill(table, progress(out));
        out.println();
        out.println("load average at the end: " + MachineInfo.loadAverage());
        table.print(out);
        rowsFile.write(table);
        return status;
    }

    /** A wall-time row and a CPU-time row of one measurement beside another of the same run. */
    private static void sideBySide(ResultTable table, String what, String besideName, double wall, double besideWall,
            double cpu, double besideCpu, DoubleFunction<String> unit) {
        table.add(new ResultTable.Row(what, unit.apply(wall), besideName + " " + unit.apply(besideWall),
                wall / besideWall, Double.NaN));
        table.add(new ResultTable.Row(what + ", CPU time", unit.apply(cpu), besideName + " " + unit.apply(besideCpu),
                cpu / besideCpu, Double.NaN));
    }

    private static Consumer<String> progress(PrintWriter out) {
        return line -> {
            out.println("  " + line);
            out.flush();
        };
    }

    /**
     * The small model of the throughput benchmarks: {@code --checkpoint} when given; else the tiny golden checkpoint
     * of a source checkout (what the figures of docs/PERFORMANCE.md were measured with); else, in an installation
     * without the sources, the demo model (say so: its figures are not comparable with the documented ones).
     */
    private static ModelSource smallModel(Path given, Consumer<String> log) {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new IllegalArgumentException("no checkpoint at " + given);
            }
            return ModelSource.checkpoint(given, Optional.empty());
        }
        if (Files.isRegularFile(TINY_CHECKPOINT)) {
            return ModelSource.checkpoint(TINY_CHECKPOINT, Optional.empty());
        }
        log.accept("no tiny checkpoint at " + TINY_CHECKPOINT + " (not a source checkout): measuring the demo model,"
                + " whose figures are not those of docs/PERFORMANCE.md; pass --checkpoint <sam3-tiny.pt> for them");
        return ModelSource.demo();
    }

    private static void forwardRows(ResultTable table, ForwardBenchmark.Result r) {
        ForwardBenchmark.Forward served = r.served().median();
        String precision = r.served().name();
        table.note("precision", r.precision(), "-");
        table.add(new ResultTable.Row(FORWARD_ROW + precision, seconds(served.seconds()),
                "upstream " + seconds(UpstreamAnchor.FORWARD_SECONDS) + " (anchor)",
                served.seconds() / UpstreamAnchor.FORWARD_SECONDS, PerformanceGoals.FORWARD_VS_UPSTREAM));
        ForwardBenchmark.Forward fp32 = r.fp32() == null ? null : r.fp32().median();
        if (fp32 != null) {
            table.add(new ResultTable.Row("full-size forward vs fp32 (same process, same weights)",
                    seconds(served.seconds()), "fp32 " + seconds(fp32.seconds()), served.seconds() / fp32.seconds(),
                    PerformanceGoals.REDUCED_FORWARD_VS_FP32));
            table.add(new ResultTable.Row("full-size forward vs fp32, CPU time", seconds(served.cpuSeconds()),
                    "fp32 " + seconds(fp32.cpuSeconds()), served.cpuSeconds() / fp32.cpuSeconds(), Double.NaN));
            Double vit = served.modules().get("vit_trunk");
            Double fp32Vit = fp32.modules().get("vit_trunk");
            if (vit != null && fp32Vit != null) {
                table.add(new ResultTable.Row("ViT trunk vs fp32", seconds(vit), "fp32 " + seconds(fp32Vit),
                        vit / fp32Vit, PerformanceGoals.REDUCED_VIT_VS_FP32));
            }
        }
        ForwardBenchmark.Forward control = r.control() == null ? null : r.control().median();
        ForwardBenchmark.Forward opByOp = r.opByOp() == null ? null : r.opByOp().median();
        if (control != null) {
            table.add(new ResultTable.Row("full-size forward vs control (same process)", seconds(served.seconds()),
                    "control " + seconds(control.seconds()), served.seconds() / control.seconds(), Double.NaN));
            table.add(new ResultTable.Row("full-size forward vs control, CPU time", seconds(served.cpuSeconds()),
                    "control " + seconds(control.cpuSeconds()), served.cpuSeconds() / control.cpuSeconds(),
                    Double.NaN));
        }
        served.modules().forEach((module, s) -> {
            Double upstream = UpstreamAnchor.MODULE_SECONDS.get(module);
            String measured = seconds(s) + besides("fp32", fp32, module) + besides("control", control, module)
                    + besides("before", opByOp, module);
            table.add(new ResultTable.Row(MODULE_ROW + module, measured,
                    upstream == null ? "-" : "upstream " + seconds(upstream),
                    upstream == null ? Double.NaN : s / upstream, Double.NaN));
        });
        extraPromptRows(table, r.served(), "", served, PerformanceGoals.EXTRA_PROMPT_VS_FORWARD);
        if (r.fp32() != null) {
            extraPromptRows(table, r.fp32(), ", fp32", fp32, Double.NaN);
        }
        if (r.control() != null) {
            extraPromptRows(table, r.control(), ", control", control, Double.NaN);
        }
        if (r.opByOp() != null) {
            extraPromptRows(table, r.opByOp(), ", before", opByOp, Double.NaN);
        }
        if (!r.singleModel()) {
            table.note("memory", "not measured: two models in the process", "run with --no-fp32 --no-control");
            return;
        }
        table.note("resident after building the model (" + precision + ")", gigabytes(r.residentAfterLoad()),
                "upstream " + gigabytes(UpstreamAnchor.RESIDENT_AFTER_LOAD_BYTES));
        table.note("peak resident while building the model", gigabytes(r.loadPeakBytes()), "-");
        long peak = r.served().peakBytes();
        double target = r.servedIsFp32() ? PerformanceGoals.PEAK_RESIDENT_FP32_BYTES
                : PerformanceGoals.PEAK_RESIDENT_REDUCED_BYTES;
        table.add(new ResultTable.Row("peak resident during a forward, " + precision, gigabytes(peak),
                "upstream " + gigabytes(UpstreamAnchor.PEAK_RSS_BYTES) + " (fp32); target " + gigabytes((long) target),
                (double) peak / UpstreamAnchor.PEAK_RSS_BYTES, target / UpstreamAnchor.PEAK_RSS_BYTES));
        if (control != null) {
            table.note("peak resident during a forward, control", gigabytes(r.control().peakBytes()), "-");
        }
    }

    /** " (fp32 1.23 s)" for a module of another mode, or "" when that mode did not run. */
    private static String besides(String name, ForwardBenchmark.Forward other, String module) {
        return other == null ? "" : " (" + name + " " + seconds(other.modules().getOrDefault(module, Double.NaN)) + ")";
    }

    private static void extraPromptRows(ResultTable table, ForwardBenchmark.ModeResult mode, String suffix,
            ForwardBenchmark.Forward full, double goal) {
        List<Double> extra = mode.extraPromptSeconds();
        for (int i = 0; i < extra.size(); i++) {
            table.add(new ResultTable.Row(EXTRA_PROMPT_ROW + (i + 2) + " on a cached image" + suffix,
                    seconds(extra.get(i)), "full forward" + suffix + " " + seconds(full.seconds()),
                    extra.get(i) / full.seconds(), goal));
        }
    }

    /**
     * Per precision and condition: the worst extra prompt against its forward and the worst run of each small module
     * against upstream, each with the range over every run; then the slowest tiny pipeline run against its target.
     */
    private static void promptPathRows(ResultTable table, PromptPathBenchmark.Result r) {
        for (PromptPathBenchmark.Series s : r.forwards()) {
            String condition = s.precision() + ", " + (s.besideNeighbour() ? "beside the neighbour" : "quiet");
            List<Double> prompts = s.ratios(EXTRA_PROMPT_ROW);
            table.add(new ResultTable.Row("extra prompts ÷ forward, " + condition + ", " + runs(s), range(prompts,
                    "%.3f"), "forward " + String.join(", ", s.measured(FORWARD_ROW)),
                    max(prompts), PerformanceGoals.EXTRA_PROMPT_VS_FORWARD));
            for (String module : PromptPath.SMALL_MODULES) {
                List<Double> ratios = s.ratios(MODULE_ROW + module);
                Double upstream = UpstreamAnchor.MODULE_SECONDS.get(module);
                table.add(new ResultTable.Row("  " + module + " ÷ upstream, " + condition, range(ratios, "%.3f"),
                        "upstream " + seconds(upstream == null ? Double.NaN : upstream), max(ratios),
                        PerformanceGoals.SMALL_MODULE_VS_UPSTREAM));
            }
            table.note("  load average at each run's start", String.join("; ",
                    s.runs().stream().map(PromptPathBenchmark.Run::loadAtStart).toList()), "-");
        }
        PromptPathBenchmark.Series tiny = r.pipelines();
        List<Double> tinyRatios = tiny.ratios(TINY_THROUGHPUT_ROW);
        table.add(new ResultTable.Row("tiny checkpoint throughput, " + runs(tiny),
                String.join(", ", tiny.measured(TINY_THROUGHPUT_ROW)),
                "target " + perSecond(PerformanceGoals.TINY_REQUESTS_PER_SECOND) + " (ratio = target / slowest)",
                max(tinyRatios), 1.0));
    }

    private static String runs(PromptPathBenchmark.Series s) {
        return s.runs().size() == 1 ? "1 run" : s.runs().size() + " runs";
    }

    /** "0.071–0.095" for the values, in the given format; "-" for none. */
    private static String range(List<Double> values, String format) {
        if (values.isEmpty()) {
            return "-";
        }
        double low = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        return String.format(Locale.ROOT, format + "–" + format, low, max(values));
    }

    /** The largest value, NaN for none (a goal is then not judged). */
    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static void imagingRows(ResultTable table, ImagingBenchmark.Result r) {
        table.add(new ResultTable.Row("decode + preprocess, 1920×1080 PNG (" + megabytes(r.pngBytes()) + ")",
                millis(r.decodePreprocessMs()), "seed PIL/torch " + millis(UpstreamAnchor.DECODE_PREPROCESS_MS),
                r.decodePreprocessMs() / UpstreamAnchor.DECODE_PREPROCESS_MS,
                PerformanceGoals.DECODE_PREPROCESS_VS_SEED));
        table.add(new ResultTable.Row("upsample + PNG-encode 50 masks at 1920×1080, 1 thread",
                millis(r.postprocessMs()), "seed torch/PIL " + millis(UpstreamAnchor.POSTPROCESS_50_MASKS_MS),
                r.postprocessMs() / UpstreamAnchor.POSTPROCESS_50_MASKS_MS, PerformanceGoals.POSTPROCESS_VS_SEED));
    }

    private static void pipelineRows(ResultTable table, PipelineBenchmark.Result r) {
        PipelineBenchmark.Measurement served = r.served();
        PipelineBenchmark.Measurement opByOp = r.opByOp();
        table.add(new ResultTable.Row(TINY_THROUGHPUT_ROW,
                perSecond(served.overlappedPerSecond()),
                "target " + perSecond(PerformanceGoals.TINY_REQUESTS_PER_SECOND) + " (ratio = target / measured)",
                PerformanceGoals.TINY_REQUESTS_PER_SECOND / served.overlappedPerSecond(), 1.0));
        table.add(new ResultTable.Row("  same, modules op by op, every thread (same process)",
                perSecond(opByOp.overlappedPerSecond()), "as served " + perSecond(served.overlappedPerSecond()),
                opByOp.overlappedPerSecond() / served.overlappedPerSecond(), Double.NaN));
        table.note("  device busy under that load", String.format(Locale.ROOT, "%.0f %% (before %.0f %%)",
                100 * served.deviceBusy(), 100 * opByOp.deviceBusy()), "-");
        PipelineBenchmark.CpuPerRequest cpu = served.cpu();
        int cores = Runtime.getRuntime().availableProcessors();
        table.note("  CPU per request under that load: host threads + device thread + rest of the process",
                String.format(Locale.ROOT, "%.2f + %.2f + %.2f = %.2f ms: %d CPUs serve at most %s", cpu.host(),
                        cpu.device(), cpu.rest(), cpu.total(), cores, perSecond(cpu.boundPerSecond(cores))), "-");
        table.note("  same requests, stages back to back on one thread", perSecond(served.sequentialPerSecond())
                + " (before " + perSecond(opByOp.sequentialPerSecond()) + ")", "-");
        table.note("  host stages per request, milliseconds", ForwardBenchmark.formatModules(served.hostMsPerStage()),
                "-");
        table.note("  infer per request, milliseconds by module",
                ForwardBenchmark.formatModules(served.inferMsPerModule()), "-");
        table.note("  same, before", ForwardBenchmark.formatModules(opByOp.inferMsPerModule()), "-");
    }

    private static String perSecond(double rate) {
        return String.format(Locale.ROOT, "%.1f requests/s", rate);
    }

    private static void httpRows(ResultTable table, OverheadBenchmark.Load load, OverheadBenchmark.Measurement m) {
        LoadGenerator.Result r = m.load();
        String offered = String.format(Locale.ROOT, "%.0f requests/s, %d answered OK", load.rate(), r.ok());
        table.add(new ResultTable.Row("facade + Kafka overhead p50 (" + offered + ")",
                millis2(OverheadBenchmark.millis(r.overhead(), 50)), "target " + millis2(PerformanceGoals.OVERHEAD_P50_MS),
                OverheadBenchmark.millis(r.overhead(), 50) / PerformanceGoals.OVERHEAD_P50_MS, 1.0));
        table.add(new ResultTable.Row("facade + Kafka overhead p99",
                millis2(OverheadBenchmark.millis(r.overhead(), 99)),
                "target " + millis2(PerformanceGoals.OVERHEAD_P99_MS),
                OverheadBenchmark.millis(r.overhead(), 99) / PerformanceGoals.OVERHEAD_P99_MS, 1.0));
        table.note("  end-to-end latency", OverheadBenchmark.percentiles(r.latency()), "-");
        table.note("  worker time (timing_ms.total)", OverheadBenchmark.percentiles(r.worker()), "-");
        table.note("  of the overhead, waiting for the worker (timing_ms.queue)",
                OverheadBenchmark.percentiles(r.queue()), "-");
        table.note("  answers other than 200; no answer", r.refused() + "; " + r.failed(), "-");
        m.split().ifPresent(t -> table.note("  facade timers (means): handler's own work; Kafka to the worker;"
                + " back to the facade", millis2(t.facadeWork()) + "; " + millis2(t.queue()) + "; "
                + millis2(t.replyPath()), "-"));
        m.cpuMsPerRequest().ifPresent(cpu -> table.note("  CPU per request, the whole process (stack and load"
                + " generator)", String.format(Locale.ROOT, "%.1f ms", cpu), "-"));
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String millis(double ms) {
        return String.format(Locale.ROOT, "%.0f ms", ms);
    }

    private static String gigabytes(long bytes) {
        return String.format(Locale.ROOT, "%.2f GB", ProcessMemory.gigabytes(bytes));
    }

    private static String millis2(double ms) {
        return String.format(Locale.ROOT, "%.2f ms", ms);
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
