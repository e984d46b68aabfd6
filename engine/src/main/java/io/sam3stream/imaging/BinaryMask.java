package io.sam3stream.imaging;

/**
 * A binary instance mask at the original image size: one byte per pixel, row-major, 1 inside the instance and 0
 * outside. The pixel array is owned by the mask and must not be modified.
 */
public final class BinaryMask {

    private final int width;
    private final int height;
    private final byte[] pixels;
    private final long area;

    /**
     * @param pixels {@code width * height} bytes, each 0 or 1; kept, not copied
     * @throws IllegalArgumentException when the size does not match or a byte is neither 0 nor 1
     */
    public BinaryMask(int width, int height, byte[] pixels) {
        this(width, height, pixels, countOnes(pixels));
        if (pixels.length != (long) width * height) {
            throw new IllegalArgumentException(width + "x" + height + " mask needs " + (long) width * height
                    + " bytes, got " + pixels.length);
        }
    }

    /** For producers that already know the pixels are 0/1 and counted them while writing them. */
    BinaryMask(int width, int height, byte[] pixels, long area) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("mask size must be positive: " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.pixels = pixels;
        this.area = area;
    }

    private static long countOnes(byte[] pixels) {
        long ones = 0;
        for (byte p : pixels) {
            if ((p & ~1) != 0) {
                throw new IllegalArgumentException("mask pixels must be 0 or 1, found " + p);
            }
            ones += p;
        }
        return ones;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Whether pixel (x, y) belongs to the instance. */
    public boolean get(int x, int y) {
        return pixels[y * width + x] != 0;
    }

    /** Number of pixels inside the instance. */
    public long area() {
        return area;
    }

    /** The 0/1 bytes, row-major (the mask's own array: read it, never write it). */
    public byte[] pixels() {
        return pixels;
    }
}
