package io.sam3stream.imaging;

/**
 * Decodes an encoded PNG or JPEG to the 8-bit RGB image upstream SAM3 sees: the pixels of
 * {@code PIL.Image.open(f).convert("RGB")}. Alpha is dropped (not composited), palettes are looked up, grey is
 * replicated, 16-bit samples are reduced as Pillow reduces them (see {@link PngPixelConverter}).
 *
 * <p>Deliberately <em>not</em> applied, because {@code Image.open} does not apply them either: EXIF orientation
 * (a photo stored sideways is segmented sideways; boxes and masks refer to the stored pixel grid), ICC profiles
 * and PNG gamma.
 *
 * <p>The header is read first and checked against the {@link ImageLimits}; only then is the pixel buffer
 * allocated, so a small file declaring a huge image costs nothing. Every refusal is an
 * {@link ImageRejectedException} with a {@link RejectionReason}. Instances are immutable and thread-safe.
 */
public final class ImageDecoder {

    private final ImageLimits limits;

    public ImageDecoder(ImageLimits limits) {
        this.limits = limits;
    }

    public ImageLimits limits() {
        return limits;
    }

    /**
     * Decodes a whole PNG or JPEG file.
     *
     * @throws ImageRejectedException when the data is empty, not PNG/JPEG, over the limits, truncated or corrupt
     */
    public RgbImage decode(byte[] data) {
        return switch (ImageFormat.detect(data)) {
            case PNG -> PngDecoder.decode(data, limits);
            case JPEG -> JpegDecoder.decode(data, limits);
        };
    }
}
