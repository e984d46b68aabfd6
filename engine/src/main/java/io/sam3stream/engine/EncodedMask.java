package io.sam3stream.engine;

/** An instance mask in the requested {@link MaskFormat} (absent for {@link MaskFormat#NONE}). */
public sealed interface EncodedMask {

    /** An 8-bit grayscale PNG, 0 background and 255 foreground, at the original image size. */
    record Png(byte[] bytes) implements EncodedMask {}

    /**
     * COCO uncompressed RLE: run lengths over the column-major pixels, starting with a run of zeros.
     *
     * @param height image height
     * @param width  image width
     * @param counts alternating background/foreground run lengths
     */
    record Rle(int height, int width, int[] counts) implements EncodedMask {}

    /** COCO compressed RLE: the run lengths in pycocotools' string form. */
    record CompressedRle(int height, int width, String counts) implements EncodedMask {}
}
