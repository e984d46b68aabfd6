package io.sam3stream.facade.predict;

/**
 * The bounds a {@code POST /predict} body is checked against before anything is produced.
 *
 * @param maxSide      largest image side in pixels (400 above it)
 * @param maxPixels    largest image area in pixels (400 above it)
 * @param maxPrompts   most prompts (400 above it)
 * @param maxBodyBytes largest body, which also bounds the longest JSON string the parser accepts
 */
public record RequestLimits(int maxSide, long maxPixels, int maxPrompts, long maxBodyBytes) {
}
