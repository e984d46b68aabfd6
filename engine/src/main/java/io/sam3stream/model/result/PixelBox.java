package io.sam3stream.model.result;

/**
 * A box in pixels of the original image, corners (x0, y0) top-left and (x1, y1) bottom-right. Not clipped: a
 * predicted box may extend past the image edges, as upstream reports it.
 */
public record PixelBox(float x0, float y0, float x1, float y1) {}
