package io.sam3stream.imaging;

import java.util.Locale;

/**
 * Why an encoded image was refused. Every reason is a client error (HTTP 400 class); {@link #code()} is the stable
 * machine-readable form for responses and metrics.
 */
public enum RejectionReason {
    /** No bytes at all. */
    EMPTY,
    /** Neither PNG nor JPEG (GIF, BMP, WebP, TIFF and anything unrecognised). */
    UNSUPPORTED_FORMAT,
    /** A PNG or JPEG variant this decoder does not handle: CMYK/YCCK, 12-bit, lossless or arithmetic-coded JPEG. */
    UNSUPPORTED_ENCODING,
    /** The header declares a width or height of zero. */
    ZERO_SIDE,
    /** The header declares a side longer than {@link ImageLimits#maxSide()}. */
    SIDE_TOO_LARGE,
    /** The header declares more pixels than {@link ImageLimits#maxPixels()}. */
    TOO_MANY_PIXELS,
    /** The file ends before its image data does. */
    TRUNCATED,
    /** The file is damaged: bad checksum, invalid header field, undecodable data. */
    CORRUPT;

    /** Lower-case snake form of the name, e.g. {@code side_too_large}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
