package io.sam3stream.model.config;

/**
 * Size of one stack of DETR-style transformer layers (geometry encoder, fusion encoder or decoder).
 *
 * @param layers         number of layers
 * @param heads          attention heads (head dim = d_model / heads)
 * @param dimFeedforward hidden width of the ReLU feed-forward block
 */
public record TransformerConfig(int layers, int heads, int dimFeedforward) {}
