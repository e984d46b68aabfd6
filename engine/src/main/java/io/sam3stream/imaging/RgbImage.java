package io.sam3stream.imaging;

/**
 * A decoded image: 8-bit RGB, row-major, channels interleaved (H × W × 3), the layout of
 * {@code numpy.asarray(PIL.Image.convert("RGB"))}. The pixel array is owned by the image and must not be modified.
 */
public final class RgbImage {

    private final int width;
    private final int height;
    private final byte[] pixels;

    /**
     * @param pixels {@code width * height * 3} bytes, R G B of (0,0), then (1,0), ...; kept, not copied
     */
    public RgbImage(int width, int height, byte[] pixels) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("image size must be positive: " + width + "x" + height);
        }
        if (pixels.length != (long) width * height * 3) {
            throw new IllegalArgumentException(width + "x" + height + " RGB image needs " + (long) width * height * 3
                    + " bytes but got " + pixels.length);
        }
        this.width = width;
        this.height = height;
        this.pixels = pixels;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** The interleaved RGB bytes (the image's own array: read it, never write it). */
    public byte[] pixels() {
        return pixels;
    }

    /** Channel {@code c} (0 R, 1 G, 2 B) of pixel (x, y) as 0..255. */
    public int sample(int x, int y, int c) {
        return pixels[(y * width + x) * 3 + c] & 0xff;
    }

    @Override
    public String toString() {
        return "RgbImage[" + width + "x" + height + "]";
    }
}
