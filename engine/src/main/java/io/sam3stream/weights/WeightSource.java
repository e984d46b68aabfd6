package io.sam3stream.weights;

import java.util.Set;

/**
 * A set of named tensors under SAM3's canonical names: the upstream image-model state-dict keys with the
 * {@code detector.} prefix removed (e.g. {@code backbone.vision_backbone.trunk.pos_embed}).
 * Checkpoint files, name-mapped Hugging Face files and generated weights all present themselves this way.
 */
public interface WeightSource extends AutoCloseable {

    /** Every canonical name this source can provide. */
    Set<String> names();

    /** True if {@link #get} would return a tensor for this name. */
    default boolean contains(String name) {
        return names().contains(name);
    }

    /**
     * The tensor stored under a canonical name.
     *
     * @throws CheckpointException if the source has no such tensor
     */
    RawTensor get(String name);

    /** A short description for logs and errors: the file path, or how the weights were made. */
    String description();

    /** Releases mapped files; tensors obtained earlier must not be used afterwards. */
    @Override
    void close();
}
