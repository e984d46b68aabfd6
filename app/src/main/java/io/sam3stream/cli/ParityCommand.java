package io.sam3stream.cli;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PrecisionChoice;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.result.ImageSize;
import io.sam3stream.parity.GoldenFolder;
import io.sam3stream.parity.ParityBounds;
import io.sam3stream.parity.ParityCheck;
import io.sam3stream.parity.ParityReport;
import io.sam3stream.parity.ParityRun;
import io.sam3stream.parity.SampledParityCheck;
import io.sam3stream.parity.SampledReference;
import io.sam3stream.parity.StageRecorder;
import io.sam3stream.parity.StageVerdict;
import io.sam3stream.parity.StepTimer;
import io.sam3stream.worker.ModelOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sam3 parity}: runs the model on a golden folder's inputs and compares every stage with upstream's. */
@Command(name = "parity", mixinStandardHelpOptions = true,
        description = {"Runs the model on a golden folder's inputs, in the precision SAM3_PRECISION selects (printed"
                + " first), and prints a PASS/FAIL line per reference stage with its max and mean difference. The"
                + " bounds below are fp32's; a bf16 run is held to 1e-2 where fp32 has 1e-4, 2e-2 x std where fp32"
                + " has 1e-3 x std, boxes within 1 px, mask IoU >= 0.98, mask areas also within 2 %% of the largest"
                + " reference area, and the same kept queries.",
            "Full outputs (outputs.safetensors): float stages within max abs diff <= 1e-4 x (1 + max|ref|),"
                + " integer and boolean stages exactly.",
            "Sampled full-size outputs (outputs-sampled.safetensors): sampled values and whole-tensor mean, std,"
                + " min and max of each large stage within 1e-3 x the reference's std; small float stages within"
                + " 1e-4 absolute (pixel boxes divided by the image size first); kept query indices and the other"
                + " integer and boolean stages exactly; mask areas and probability sums within 0.1 %% of the image's"
                + " pixels.",
            "The text stages' padding positions, which the engine leaves at zero because nothing after the text"
                + " encoder reads them, are compared with upstream's values there taken as zero (a sampled text"
                + " stage by its samples alone).",
            "Exits 1 if any stage fails or is missing."})
public final class ParityCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--golden", required = true, paramLabel = "<folder>",
            description = "A folder laid out like the golden sets (config.json, inputs.safetensors, outputs).")
    private Path golden;

    @Option(names = "--backend", paramLabel = "<cpu|native-host|tt>",
            description = "Where the ViT trunk and fusion encoder run (default: SAM3_BACKEND, cpu).")
    private String backend;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Settings settings = Settings.fromEnvironment();
        if (backend != null) {
            settings = settings.with(Knob.SAM3_BACKEND, backend);
        }
        try (GoldenFolder folder = GoldenFolder.open(golden)) {
            PrecisionChoice precision = PrecisionChoice.of(settings, folder.config());
            ParityBounds bounds = ParityBounds.of(precision.precision());
            out.println("precision " + precision.describe() + "; bounds of " + bounds.name());
            out.flush();
            SampledReference sampled = folder.sampled() ? SampledReference.of(folder.outputs()) : null;
            StageRecorder recorder = sampled == null
                    ? new StageRecorder(folder.outputs().names())
                    : new StageRecorder(sampled.wholeStages(), sampled.sampleIndices());
            ModelSource source = model.open(settings);
            StepTimer loadTimer = StepTimer.start();
            ParityRun.Timings timings;
            StepTimer.Elapsed load;
            ModelSource withGoldenConfig = new ModelSource(source.weights(), folder.config(), source.repo(),
                    source.revision(), source.checkpoint(), source.folder());
            try (Sam3Model sam3 = EngineFactory.loadModel(settings, withGoldenConfig, NeckLevels.ALL,
                    spec.commandLine().getErr()::println)) {
                load = loadTimer.elapsed();
                timings = ParityRun.run(sam3, folder, recorder);
            }
            int[] hw = folder.imageHeightWidth();
            ParityReport report = sampled == null
                    ? ParityCheck.compare(folder.outputs(), recorder.stages(), bounds)
                    : SampledParityCheck.compare(sampled, recorder, new ImageSize(hw[1], hw[0]), bounds);
            // a device island shows only its output: the trunk's inner stages cannot be observed there
            boolean islands = !settings.get(Knob.SAM3_BACKEND).equals("cpu");
            List<String> insideIslands = report.notImplemented().stream()
                    .filter(stage -> islands && stage.startsWith("vit.") && !stage.equals("vit.out")).toList();
            List<String> missing = report.notImplemented().stream().filter(s -> !insideIslands.contains(s)).toList();
            print(out, report, missing, insideIslands, timings, load, source);
            return report.failures().isEmpty() && missing.isEmpty() ? 0 : 1;
        }
    }

    private static void print(PrintWriter out, ParityReport report, List<String> missing,
            List<String> insideIslands, ParityRun.Timings timings, StepTimer.Elapsed load, ModelSource source) {
        report.verdicts().forEach(v -> out.println(v.reportLine()));
        if (!insideIslands.isEmpty()) {
            out.println("inside the device island (not observable): " + String.join(", ", insideIslands));
        }
        if (!missing.isEmpty()) {
            out.println("not implemented: " + String.join(", ", missing));
        }
        out.printf(Locale.ROOT, "%d stages compared, %d failed, %d not implemented (%s)%n",
                report.verdicts().size(), report.failures().size(), missing.size(), source.checkpoint());
        out.println("time: weights and model " + load);
        out.println("time: image " + timings.image());
        timings.cases().forEach((name, elapsed) -> out.println("time: " + name + " " + elapsed));
        if (!report.failures().isEmpty()) {
            out.println("FAILED: " + String.join(", ",
                    report.failures().stream().map(StageVerdict::stage).toList()));
        }
        out.flush();
    }
}
