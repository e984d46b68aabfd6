package io.sam3stream.engine;

/**
 * Milliseconds spent per stage of one request, as the reference server's {@code timing_ms}.
 *
 * @param decode           image file → pixels
 * @param preprocess       resize and normalise to the model input
 * @param forward          the whole model forward (image features, when not cached, plus every prompt)
 * @param forwardPerPrompt {@code forward} divided by the number of prompts
 * @param postprocess      scores, boxes, mask upsampling and encoding
 * @param total            everything, end to end
 */
public record StageTimings(double decode, double preprocess, double forward, double forwardPerPrompt,
        double postprocess, double total) {}
