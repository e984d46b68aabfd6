package io.sam3stream.device;

/**
 * Sizes of the fusion encoder island ({@code sam3n_encoder_config}; upstream {@code _create_transformer_encoder}).
 *
 * @param dModel         token width d
 * @param layers         number of layers
 * @param heads          attention heads
 * @param dimFeedforward hidden width of the ReLU feed-forward block
 */
public record FusionEncoderConfig(int dModel, int layers, int heads, int dimFeedforward) {}
