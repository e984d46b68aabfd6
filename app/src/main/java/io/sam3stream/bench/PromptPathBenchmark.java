package io.sam3stream.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The prompt path's goals measured as they are stated: the full-size forward with three extra prompts on the cached
 * image ({@code sam3 bench forward}), several runs per precision, each a fresh process, the precisions alternating,
 * first on a quiet machine and then beside a CPU-bound {@link Neighbour}; then the tiny checkpoint through the
 * overlapped pipeline ({@code sam3 bench pipeline}), several runs. Every child prints its own table as it finishes;
 * the caller summarises their rows.
 */
public final class PromptPathBenchmark {

    /** JVM memory of each forward process: what the documented peak-memory figures were measured with. */
    static final List<String> FORWARD_HEAP = List.of("-Xmx1g", "-XX:MaxDirectMemorySize=256m");

    /** One full-size model per process (so its memory is measured too), three extra prompts. */
    static final List<String> FORWARD = List.of("bench", "forward", "--passes", "1", "--no-control", "--no-fp32",
            "--extra-prompts", "3");

    /**
     * @param runs          forward processes per precision and condition, and pipeline processes
     * @param precisions    {@code SAM3_PRECISION} values to measure, alternating within each round of runs
     * @param neighbour     whether to repeat the forwards beside a CPU-bound neighbour
     * @param neighbourLead how long the neighbour runs before the first measurement beside it (the load average
     *                      takes a while to show it)
     * @param requests      timed requests of each pipeline run
     */
    public record Options(int runs, List<String> precisions, boolean neighbour, Duration neighbourLead,
            int requests) {}

    /** One child process: its table's rows and the 1-, 5- and 15-minute load averages when it started. */
    public record Run(List<ResultTable.Row> rows, String loadAtStart) {}

    /**
     * The runs of one measurement under one condition: the forwards of one precision, quiet or beside the
     * neighbour, or the tiny pipelines (named "tiny", always quiet).
     */
    public record Series(String precision, boolean besideNeighbour, List<Run> runs) {

        /** The ratio of every row whose name starts with {@code prefix}, over all runs, in order. */
        public List<Double> ratios(String prefix) {
            return rows(prefix).stream().map(ResultTable.Row::ratio).filter(r -> !Double.isNaN(r)).toList();
        }

        /** The measured value of every row whose name starts with {@code prefix}, over all runs, in order. */
        public List<String> measured(String prefix) {
            return rows(prefix).stream().map(ResultTable.Row::measured).toList();
        }

        private List<ResultTable.Row> rows(String prefix) {
            return runs.stream().flatMap(r -> r.rows().stream()).filter(row -> row.what().startsWith(prefix)).toList();
        }
    }

    /**
     * @param forwards  per condition (quiet first) and precision, the forward runs
     * @param pipelines the tiny pipeline runs
     */
    public record Result(List<Series> forwards, Series pipelines) {}

    private PromptPathBenchmark() {}

    /** Runs every measurement of {@code options}, one child process at a time. */
    public static Result run(Options options, Consumer<String> log) throws IOException, InterruptedException {
        List<Series> forwards = new ArrayList<>(forwardSeries(options, null, log));
        if (options.neighbour()) {
            try (Neighbour neighbour = Neighbour.start()) {
                log.accept("neighbour started (sam3 bench blocks --runs 10, in a loop); measuring beside it in "
                        + options.neighbourLead().toSeconds() + " s");
                Thread.sleep(options.neighbourLead().toMillis());
                forwards.addAll(forwardSeries(options, neighbour, log));
            }
        }
        List<Run> pipelines = new ArrayList<>();
        for (int i = 1; i <= options.runs(); i++) {
            log.accept("tiny pipeline, run " + i + " of " + options.runs());
            pipelines.add(child(List.of(), Map.of(), List.of("bench", "pipeline", "--requests",
                    Integer.toString(options.requests())), null));
        }
        return new Result(forwards, new Series("tiny", false, pipelines));
    }

    /** The forward runs of every precision, alternating, beside {@code neighbour} when it is not null. */
    private static List<Series> forwardSeries(Options options, Neighbour neighbour, Consumer<String> log)
            throws IOException, InterruptedException {
        List<List<Run>> runs = new ArrayList<>();
        options.precisions().forEach(p -> runs.add(new ArrayList<>()));
        for (int i = 1; i <= options.runs(); i++) {
            for (int p = 0; p < options.precisions().size(); p++) {
                String precision = options.precisions().get(p);
                log.accept("forward, SAM3_PRECISION=" + precision + (neighbour == null ? ", quiet" : ", beside the"
                        + " neighbour") + ", run " + i + " of " + options.runs());
                runs.get(p).add(child(FORWARD_HEAP, Map.of("SAM3_PRECISION", precision), FORWARD, neighbour));
            }
        }
        List<Series> series = new ArrayList<>();
        for (int p = 0; p < options.precisions().size(); p++) {
            series.add(new Series(options.precisions().get(p), neighbour != null, runs.get(p)));
        }
        return series;
    }

    private static Run child(List<String> heap, Map<String, String> environment, List<String> arguments,
            Neighbour neighbour) throws IOException, InterruptedException {
        String load = MachineInfo.loadAverage();
        List<ResultTable.Row> rows = BenchProcess.rows(heap, environment, arguments);
        if (neighbour != null) {
            neighbour.check(); // it ran throughout only if it is still running now
        }
        return new Run(rows, load);
    }
}
