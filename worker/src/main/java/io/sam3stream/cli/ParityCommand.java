package io.sam3stream.cli;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.result.ImageSize;
import io.sam3stream.parity.GoldenFolder;
import io.sam3stream.parity.ParityCheck;
import io.sam3stream.parity.ParityReport;
import io.sam3stream.parity.ParityRun;
import io.sam3stream.parity.SampledParityCheck;
import io.sam3stream.parity.SampledReference;
import io.sam3stream.parity.StageRecorder;
import io.sam3stream.parity.StageVerdict;
import io.sam3stream.parity.StepTimer;
import io.sam3stream.weights.WeightSource;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sam3 parity}: runs the model on a golden folder's inputs and compares every stage with upstream's. */
@Command(name = "parity", mixinStandardHelpOptions = true,
        description = {"Runs the model on a golden folder's inputs and prints a PASS/FAIL line per reference stage."
                + " Full outputs (outputs.safetensors): float stages within max abs diff <= 1e-4 x (1 + max|ref|),"
                + " integer and boolean stages exactly.",
            "Sampled full-size outputs (outputs-sampled.safetensors): sampled values and whole-tensor mean, std,"
                + " min and max of each large stage within 1e-3 x the reference's std; small float stages within"
                + " 1e-4 absolute (pixel boxes divided by the image size first); kept query indices and the other"
                + " integer and boolean stages exactly; mask areas and probability sums within 0.1 % of the image's"
                + " pixels.",
            "Exits 1 if any stage fails or is missing."})
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
            SampledReference sampled = folder.sampled() ? SampledReference.of(folder.outputs()) : null;
            StageRecorder recorder = sampled == null
                    ? new StageRecorder(folder.outputs().names())
                    : new StageRecorder(sampled.wholeStages(), sampled.sampleIndices());
            ModelSource source = model.open(settings);
            StepTimer loadTimer = StepTimer.start();
            ParityRun.Timings timings;
            StepTimer.Elapsed load;
            try (WeightSource weights = source.weights();
                    Sam3Model sam3 = Sam3Model.load(weights, folder.config(), NeckLevels.ALL)) {
                load = loadTimer.elapsed();
                timings = ParityRun.run(sam3, folder, recorder);
            }
            int[] hw = folder.imageHeightWidth();
            ParityReport report = sampled == null
                    ? ParityCheck.compare(folder.outputs(), recorder.stages())
                    : SampledParityCheck.compare(sampled, recorder, new ImageSize(hw[1], hw[0]));
            print(out, report, timings, load, source);
            return report.passed() ? 0 : 1;
        }
    }

    private static void print(PrintWriter out, ParityReport report, ParityRun.Timings timings,
            StepTimer.Elapsed load, ModelSource source) {
        report.verdicts().forEach(v -> out.println(v.reportLine()));
        if (!report.notImplemented().isEmpty()) {
            out.println("not implemented: " + String.join(", ", report.notImplemented()));
        }
        out.printf(Locale.ROOT, "%d stages compared, %d failed, %d not implemented (%s)%n",
                report.verdicts().size(), report.failures().size(), report.notImplemented().size(),
                source.checkpoint());
        out.println("time: weights and model " + load);
        out.println("time: image " + timings.image());
        timings.cases().forEach((name, elapsed) -> out.println("time: " + name + " " + elapsed));
        if (!report.passed()) {
            out.println("FAILED: " + String.join(", ",
                    report.failures().stream().map(StageVerdict::stage).toList()));
        }
        out.flush();
    }
}
