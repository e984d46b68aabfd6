package io.sam3stream.imaging;

/**
 * Size limits checked against an image's header before its pixels are decoded, so that a small file declaring a
 * huge image (a decompression bomb) is refused before any large buffer exists.
 *
 * @param maxSide   longest width or height accepted ({@code SAM3_MAX_SIDE} of the reference server, default 4096)
 * @param maxPixels most width × height accepted
 */
public record ImageLimits(int maxSide, long maxPixels) {

    /** The reference server's default {@code SAM3_MAX_SIDE}. */
    public static final int DEFAULT_MAX_SIDE = 4096;

    /** Limits of the reference server: sides up to 4096, so at most 4096² pixels. */
    public static final ImageLimits DEFAULT = ofMaxSide(DEFAULT_MAX_SIDE);

    /** The most pixels whose RGB bytes fit in one Java array. */
    public static final long LARGEST_DECODABLE_PIXELS = (Integer.MAX_VALUE - 8) / 3;

    public ImageLimits {
        if (maxSide < 1 || maxPixels < 1 || maxPixels > LARGEST_DECODABLE_PIXELS) {
            throw new IllegalArgumentException("image limits must be positive and maxPixels at most "
                    + LARGEST_DECODABLE_PIXELS + ": maxSide " + maxSide + ", maxPixels " + maxPixels);
        }
    }

    /** Limits that bound the sides only (pixels up to {@code maxSide²}, or as many as can be decoded). */
    public static ImageLimits ofMaxSide(int maxSide) {
        return new ImageLimits(maxSide, Math.min((long) maxSide * maxSide, LARGEST_DECODABLE_PIXELS));
    }

    /**
     * Refuses a declared size that breaks these limits.
     *
     * @throws ImageRejectedException with {@link RejectionReason#ZERO_SIDE}, {@link RejectionReason#SIDE_TOO_LARGE}
     *                                or {@link RejectionReason#TOO_MANY_PIXELS}
     */
    public void check(ImageFormat format, long width, long height) {
        String size = format + " image of " + width + "x" + height + " pixels";
        if (width == 0 || height == 0) {
            throw new ImageRejectedException(RejectionReason.ZERO_SIDE, size + " has a side of zero");
        }
        if (width > maxSide || height > maxSide) {
            throw new ImageRejectedException(RejectionReason.SIDE_TOO_LARGE,
                    size + " is too large: the longest side allowed is " + maxSide);
        }
        if (width * height > maxPixels) {
            throw new ImageRejectedException(RejectionReason.TOO_MANY_PIXELS,
                    size + " has too many pixels: at most " + maxPixels + " are allowed");
        }
    }
}
