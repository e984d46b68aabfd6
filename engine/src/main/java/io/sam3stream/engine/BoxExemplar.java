package io.sam3stream.engine;

/**
 * An exemplar box in pixels of the original image.
 *
 * @param x0       left
 * @param y0       top
 * @param x1       right (greater than x0)
 * @param y1       bottom (greater than y0)
 * @param positive true if the box shows an instance of the concept, false for a look-alike to leave out
 */
public record BoxExemplar(float x0, float y0, float x1, float y1, boolean positive) {}
