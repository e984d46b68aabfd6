package io.sam3stream.cli;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.parity.GoldenFolder;
import io.sam3stream.parity.ParityCheck;
import io.sam3stream.parity.ParityRun;
import io.sam3stream.parity.StageRecorder;
import io.sam3stream.weights.WeightSource;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sam3 parity}: runs the model on a golden folder's inputs and compares every stage with upstream's. */
@Command(name = "parity", mixinStandardHelpOptions = true,
        description = {"Runs the model on a golden folder's inputs and prints, per reference stage, the max and mean"
                + " absolute difference, the cosine similarity and PASS/FAIL (float stages: max abs diff <= 1e-4 x"
                + " (1 + max|ref|)). Exits 1 if any stage fails."})
public final class ParityCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--golden", required = true, paramLabel = "<folder>",
            description = "A folder laid out like the golden sets (config.json, inputs.safetensors, outputs).")
    private Path golden;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Settings settings = Settings.fromEnvironment();
        try (GoldenFolder folder = GoldenFolder.open(golden)) {
            ModelSource source = model.open(settings);
            StageRecorder recorder = new StageRecorder(folder.outputs().names());
            long start = System.nanoTime();
            try (WeightSource weights = source.weights();
                    Sam3Model sam3 = Sam3Model.load(weights, folder.config(), NeckLevels.ALL)) {
                ParityRun.run(sam3, folder, recorder);
            }
            ParityCheck.Report report = ParityCheck.compare(folder.outputs(), recorder.stages());
            report.comparisons().forEach(c -> out.println(c.reportLine()));
            if (!report.notImplemented().isEmpty()) {
                out.println("not implemented: " + String.join(", ", report.notImplemented()));
            }
            long failed = report.comparisons().stream().filter(c -> !c.passed()).count();
            out.printf("%d stages compared, %d failed, %d not implemented (%.1f s, %s)%n",
                    report.comparisons().size(), failed, report.notImplemented().size(),
                    (System.nanoTime() - start) / 1e9, source.checkpoint());
            out.flush();
            return report.passed() && report.notImplemented().isEmpty() ? 0 : 1;
        }
    }
}
