package io.sam3stream.weights;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A checkpoint found by {@link WeightsLocator}.
 *
 * @param checkpoint the {@code sam3.pt} or {@code model.safetensors} file
 * @param config the {@code config.json} beside it, when there is one
 * @param origin where it was found, for logs: {@code SAM3_WEIGHTS_DIR} or the Hugging Face repo and commit
 */
public record LocatedWeights(Path checkpoint, Optional<Path> config, String origin) {}
