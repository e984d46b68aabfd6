package io.sam3stream.cli;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.kafka.ClientProperties;
import io.sam3stream.label.DatasetImage;
import io.sam3stream.label.DatasetImages;
import io.sam3stream.label.HttpLabeller;
import io.sam3stream.label.InProcessLabeller;
import io.sam3stream.label.KafkaLabeller;
import io.sam3stream.label.LabelQuery;
import io.sam3stream.label.LabelRun;
import io.sam3stream.label.Labeller;
import io.sam3stream.label.ProgressLine;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.worker.ModelOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sam3 label}: a folder of images to a COCO instances file, through the engine in this process, a facade, or
 * the request topic of a running stack. Stopped and started again with the same {@code --out}, it resumes.
 */
@Command(name = "label", mixinStandardHelpOptions = true,
        description = {"Labels a folder of images with text prompts and writes COCO annotations (compressed RLE).",
            "Answers are logged to <out>.results.jsonl as they arrive; running the same command again resumes."})
public final class LabelCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--images", required = true, paramLabel = "<dir or glob>",
            description = "A folder (every PNG/JPEG below it) or a glob such as 'frames/**/*.jpg'.")
    private String images;

    @Option(names = "--prompt", paramLabel = "<text>", description = "A noun phrase (repeatable).")
    private List<String> prompts = new ArrayList<>();

    @Option(names = "--prompts-file", paramLabel = "<file>",
            description = "One prompt per line, optionally 'prompt=category'; '#' starts a comment.")
    private Path promptsFile;

    @Option(names = "--category", paramLabel = "<name>",
            description = "The COCO category of each --prompt, in order (default: the prompt itself).")
    private List<String> categories = new ArrayList<>();

    @Option(names = "--threshold", defaultValue = "0.5", description = "Score threshold (default: ${DEFAULT-VALUE}).")
    private float threshold;

    @Option(names = "--max-instances", defaultValue = "50",
            description = "Most instances per prompt and image (default: ${DEFAULT-VALUE}).")
    private int maxInstances;

    @Option(names = "--out", required = true, paramLabel = "<coco.json>", description = "The COCO file to write.")
    private Path out;

    @ArgGroup(exclusive = true)
    private Target target = new Target();

    /** Where the images are segmented: this process (neither option), a facade, or a Kafka stack. */
    static final class Target {
        @Option(names = "--url", paramLabel = "<facade>", description = "A facade, e.g. http://localhost:20000.")
        URI url;

        @Option(names = "--kafka", paramLabel = "<bootstrap>",
                description = "Kafka bootstrap servers: requests go to the request topic, shared by every worker.")
        String kafka;
    }

    @Option(names = "--schema-registry", paramLabel = "<url>",
            description = "With --kafka: the schema registry (default: SCHEMA_REGISTRY_URL).")
    private URI schemaRegistry;

    @Option(names = "--claim-check",
            description = "With --kafka: send file:// URIs instead of image bytes (workers need the folder under"
                    + " their SAM3_IMAGE_ROOT).")
    private boolean claimCheck;

    @Option(names = "--api-key", paramLabel = "<token>", description = "With --url: a bearer token.")
    private String apiKey;

    @Option(names = "--concurrency", defaultValue = "8",
            description = "With --url or --kafka: images in flight at once (default: ${DEFAULT-VALUE}; 2 to 4 per"
                    + " worker keeps every worker busy).")
    private int concurrency;

    @Option(names = "--timeout", defaultValue = "PT10M",
            description = "With --url or --kafka: how long one image may take, ISO-8601 (default: ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Settings settings = Settings.fromEnvironment();
        LabelQuery query = query();
        if (concurrency < 1 || concurrency > 10_000) {
            throw new ParameterException(spec.commandLine(), "--concurrency must be within 1..10000");
        }
        List<DatasetImage> dataset;
        try {
            dataset = DatasetImages.find(images);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        LabelRun run = new LabelRun(dataset, query, out);
        try (Labeller labeller = labeller(settings, err)) {
            err.println("labelling " + dataset.size() + " images with " + query.prompts() + " through "
                    + labeller.describe() + "; answers logged to " + LabelRun.logPath(out));
            err.flush();
            LabelRun.Summary summary = run.run(labeller,
                    new ProgressLine(err, System.console() != null, "images", System::nanoTime));
            err.println("wrote " + out + ": " + summary.labelled() + " images (" + summary.resumed()
                    + " from an earlier run), " + summary.annotations() + " annotations"
                    + (summary.emptyMasksLeftOut() > 0 ? ", " + summary.emptyMasksLeftOut()
                            + " instances with an empty mask left out" : ""));
            summary.failures().forEach(f -> err.println("failed: " + f));
            err.flush();
            return summary.failures().isEmpty() ? 0 : 3;
        } catch (IllegalArgumentException e) {
            err.println("sam3 label: " + e.getMessage());
            return 2;
        }
    }

    private Labeller labeller(Settings settings, PrintWriter err) {
        if (target.url != null) {
            return new HttpLabeller(target.url, apiKey, timeout, concurrency);
        }
        if (target.kafka != null) {
            URI registry = schemaRegistry != null ? schemaRegistry
                    : URI.create(settings.get(Knob.SCHEMA_REGISTRY_URL));
            ClientProperties clients = new ClientProperties(target.kafka, settings.getInt(Knob.SAM3_MAX_MESSAGE_BYTES),
                    settings.kafkaOverrides());
            return new KafkaLabeller(clients, SchemaRegistryClient.builder(registry).build(),
                    settings.get(Knob.SAM3_REQUESTS_TOPIC), settings.get(Knob.SAM3_RESULTS_TOPIC), claimCheck,
                    timeout, concurrency);
        }
        return new InProcessLabeller(EngineFactory.create(settings, model.open(settings), line -> {
            err.println(line);
            err.flush();
        }));
    }

    private LabelQuery query() throws IOException {
        List<String> texts = new ArrayList<>(prompts);
        List<String> names = new ArrayList<>(categories);
        if (!names.isEmpty() && names.size() != texts.size()) {
            throw new ParameterException(spec.commandLine(), "give one --category per --prompt (" + texts.size()
                    + " prompts, " + names.size() + " categories)");
        }
        if (names.isEmpty()) {
            names.addAll(texts);
        }
        if (promptsFile != null) {
            for (String raw : Files.readAllLines(promptsFile)) {
                String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')).strip() : raw.strip();
                if (line.isEmpty()) {
                    continue;
                }
                int eq = line.indexOf('=');
                texts.add(eq < 0 ? line : line.substring(0, eq).strip());
                names.add(eq < 0 ? line : line.substring(eq + 1).strip());
            }
        }
        if (texts.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give at least one --prompt or a --prompts-file");
        }
        try {
            return new LabelQuery(texts, names, threshold, maxInstances);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
