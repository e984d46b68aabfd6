package io.sam3stream.parity;

/**
 * A copy of one stage's output taken while the model ran.
 *
 * @param shape  the tensor's shape
 * @param values its values in C order (booleans as 0/1)
 */
public record RecordedStage(long[] shape, float[] values) {}
