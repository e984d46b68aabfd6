package io.sam3stream.imaging;

import java.awt.image.DataBufferByte;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * Decodes JPEG to 8-bit RGB the way Pillow (libjpeg-turbo) does. The JDK's decoder (IJG libjpeg: the same integer
 * IDCT and fancy upsampling) is asked for the raw components, without any colour handling of its own (it would
 * apply embedded ICC profiles and guess colour spaces differently); the colour space is then decided from the
 * markers as libjpeg decides it ({@link JpegHeader#isYCbCr()}) and YCbCr converted with libjpeg's tables
 * ({@link YCbCrToRgb}). Greyscale is replicated to three channels. EXIF orientation is not applied.
 *
 * <p>A file that ends before its last scan is refused as {@link RejectionReason#TRUNCATED}, as Pillow raises
 * "image file is truncated"; the decoder's other warnings (extraneous bytes, which libjpeg also only warns about)
 * are tolerated.
 */
final class JpegDecoder {

    /** The JDK decoder's warning when the data ends before the image does ("Premature end of JPEG file"). */
    private static final String TRUNCATION_WARNING = "Truncated File - Missing EOI marker";

    private JpegDecoder() {}

    static RgbImage decode(byte[] data, ImageLimits limits) {
        JpegHeader header = JpegHeader.read(data);
        limits.check(ImageFormat.JPEG, header.width(), header.height());
        byte[] components = decodeComponents(data, header);
        if (header.components() == 1) {
            return new RgbImage(header.width(), header.height(), greyToRgb(components));
        }
        if (header.isYCbCr()) {
            YCbCrToRgb.convertInPlace(components);
        }
        return new RgbImage(header.width(), header.height(), components);
    }

    /** The decoded, upsampled components, interleaved, one byte each: what libjpeg hands to its colour converter. */
    private static byte[] decodeComponents(byte[] data, JpegHeader header) {
        ImageReader reader = jpegReader();
        List<String> warnings = new ArrayList<>();
        reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
        Raster raster;
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(data))) {
            reader.setInput(in, true, true);
            raster = reader.readRaster(0, null); // a raster read disables all of the JDK's colour conversion
        } catch (IOException | RuntimeException e) {
            throw new ImageRejectedException(RejectionReason.CORRUPT, "JPEG file is corrupt: " + e.getMessage(), e);
        } finally {
            reader.dispose();
        }
        if (warnings.contains(TRUNCATION_WARNING)) {
            throw new ImageRejectedException(RejectionReason.TRUNCATED,
                    "JPEG file is truncated: its data ends before the end of the image");
        }
        int bands = header.components();
        if (raster.getWidth() != header.width() || raster.getHeight() != header.height()
                || raster.getNumBands() != bands
                || !(raster.getSampleModel() instanceof PixelInterleavedSampleModel model)
                || model.getPixelStride() != bands || model.getScanlineStride() != bands * header.width()) {
            throw new IllegalStateException("unexpected raster layout from the JDK JPEG decoder: " + raster);
        }
        byte[] samples = ((DataBufferByte) raster.getDataBuffer()).getData();
        if (samples.length != bands * header.width() * header.height()) {
            throw new IllegalStateException("unexpected raster size from the JDK JPEG decoder: " + samples.length);
        }
        return samples;
    }

    private static byte[] greyToRgb(byte[] grey) {
        byte[] rgb = new byte[grey.length * 3];
        for (int i = 0; i < grey.length; i++) {
            rgb[3 * i] = grey[i];
            rgb[3 * i + 1] = grey[i];
            rgb[3 * i + 2] = grey[i];
        }
        return rgb;
    }

    private static ImageReader jpegReader() {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("jpeg");
        if (!readers.hasNext()) {
            throw new IllegalStateException("the JDK's JPEG decoder is not available");
        }
        return readers.next();
    }
}
