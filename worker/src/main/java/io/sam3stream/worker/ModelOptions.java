package io.sam3stream.worker;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.ModelSource;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The command-line choice of weights shared by every command that loads the model: the configured weights
 * ({@code SAM3_WEIGHTS_DIR} or the Hugging Face cache at the pinned revision) unless {@code --checkpoint} or
 * {@code --procedural-weights} says otherwise.
 */
public final class ModelOptions {

    @ArgGroup(exclusive = true)
    private Choice choice;

    private static final class Choice {
        @Option(names = "--checkpoint", paramLabel = "<file>",
                description = "A checkpoint file (sam3.pt or .safetensors, upstream or Hugging Face layout) instead"
                        + " of the configured weights.")
        private Path checkpoint;

        @Option(names = "--procedural-weights",
                description = "The full-size model with the deterministic procedural weights (no file).")
        private boolean procedural;

        @Option(names = "--demo",
                description = "The demo model: a small configuration with generated weights (answers are not"
                        + " meaningful; no file needed).")
        private boolean demo;
    }

    /** True when the command line named the weights (a file, the procedural or the demo model). */
    public boolean explicit() {
        return choice != null;
    }

    @Option(names = "--config", paramLabel = "<config.json>",
            description = "Hyper-parameters for --checkpoint (default: a config.json beside it, else full size).")
    private Path config;

    /** Opens the chosen weights. */
    public ModelSource open(Settings settings) {
        if (choice != null && choice.checkpoint != null) {
            return ModelSource.checkpoint(choice.checkpoint, Optional.ofNullable(config));
        }
        if (choice != null && choice.procedural) {
            return ModelSource.procedural();
        }
        if (choice != null && choice.demo) {
            return ModelSource.demo();
        }
        return ModelSource.configured(settings);
    }
}
