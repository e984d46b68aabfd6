package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * Receives intermediate tensors by stage name (the names of the golden {@code outputs.safetensors}, e.g.
 * {@code vit.block0}), so that a parity run can compare every stage while a serving run records nothing.
 * Modules emit each stage in the golden file's layout.
 */
@FunctionalInterface
public interface StageSink {

    /** Records nothing. */
    StageSink NONE = (name, value) -> {};

    /**
     * Called with a stage's output; the array must not be closed or modified by the sink, and it is only valid during
     * the call (modules free their intermediates on return): copy what must outlive it.
     */
    void record(String name, NDArray value);

    /** True if this sink keeps anything; modules may skip building a stage's layout when it does not. */
    default boolean active() {
        return this != NONE;
    }

    /** A sink that records into this one with {@code prefix} prepended to every stage name. */
    default StageSink prefixed(String prefix) {
        if (this == NONE) {
            return NONE;
        }
        StageSink parent = this;
        return (name, value) -> parent.record(prefix + name, value);
    }
}
