package io.sam3stream.model.config;

/**
 * Hyper-parameters of the causal text transformer (upstream {@code _create_text_encoder}).
 *
 * @param width         token width of the transformer
 * @param heads         attention heads
 * @param layers        residual attention blocks
 * @param mlpHidden     MLP hidden width ({@code 4 × width} upstream)
 * @param contextLength tokens per prompt (32)
 * @param vocabSize     rows of the token embedding (49408)
 */
public record TextConfig(int width, int heads, int layers, int mlpHidden, int contextLength, int vocabSize) {}
