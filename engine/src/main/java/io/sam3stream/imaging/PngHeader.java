package io.sam3stream.imaging;

/**
 * The IHDR chunk of a PNG file (PNG specification §11.2.2), validated.
 *
 * @param width      pixels per row (unsigned 32-bit in the file)
 * @param height     rows
 * @param bitDepth   bits per sample (1, 2, 4, 8 or 16, as allowed for the colour type)
 * @param colorType  0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA
 * @param interlaced Adam7 interlacing
 */
record PngHeader(long width, long height, int bitDepth, int colorType, boolean interlaced) {

    static final int GRAY = 0;
    static final int RGB = 2;
    static final int PALETTE = 3;
    static final int GRAY_ALPHA = 4;
    static final int RGBA = 6;

    private static final int IHDR_LENGTH = 13;

    /** Reads the first chunk, which must be IHDR. */
    static PngHeader read(PngChunkReader chunks) {
        PngChunkReader.Chunk chunk = chunks.next();
        if (chunk.type() != PngChunkReader.IHDR || chunk.length() != IHDR_LENGTH) {
            throw corrupt("the first chunk is " + chunk.name() + " of " + chunk.length() + " bytes, not IHDR");
        }
        byte[] d = chunks.data();
        int o = chunk.offset();
        int bitDepth = d[o + 8] & 0xff;
        int colorType = d[o + 9] & 0xff;
        int compression = d[o + 10] & 0xff;
        int filter = d[o + 11] & 0xff;
        int interlace = d[o + 12] & 0xff;
        if (!isAllowed(colorType, bitDepth)) {
            throw corrupt("colour type " + colorType + " with bit depth " + bitDepth + " is not a valid combination");
        }
        if (compression != 0 || filter != 0 || interlace > 1) {
            throw corrupt("unknown compression, filter or interlace method (" + compression + ", " + filter + ", "
                    + interlace + ")");
        }
        return new PngHeader(PngChunkReader.readUnsignedInt(d, o), PngChunkReader.readUnsignedInt(d, o + 4),
                bitDepth, colorType, interlace == 1);
    }

    /** Samples per pixel. */
    int channels() {
        return switch (colorType) {
            case GRAY, PALETTE -> 1;
            case GRAY_ALPHA -> 2;
            case RGB -> 3;
            default -> 4;
        };
    }

    int bitsPerPixel() {
        return channels() * bitDepth;
    }

    /** The byte distance the filters look back: one pixel, at least one byte. */
    int filterStride() {
        return Math.max(1, bitsPerPixel() / 8);
    }

    /** Bytes of one unfiltered scanline of {@code pixels} pixels (without the filter-type byte). */
    int rowBytes(int pixels) {
        return (int) (((long) pixels * bitsPerPixel() + 7) / 8);
    }

    private static boolean isAllowed(int colorType, int bitDepth) {
        return switch (colorType) {
            case GRAY -> bitDepth == 1 || bitDepth == 2 || bitDepth == 4 || bitDepth == 8 || bitDepth == 16;
            case PALETTE -> bitDepth == 1 || bitDepth == 2 || bitDepth == 4 || bitDepth == 8;
            case RGB, GRAY_ALPHA, RGBA -> bitDepth == 8 || bitDepth == 16;
            default -> false;
        };
    }

    private static ImageRejectedException corrupt(String why) {
        return new ImageRejectedException(RejectionReason.CORRUPT, "PNG file is corrupt: " + why);
    }
}
