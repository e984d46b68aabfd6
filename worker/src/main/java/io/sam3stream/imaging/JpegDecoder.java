package io.sam3stream.imaging;

import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * Decodes JPEG to 8-bit RGB with the JDK's decoder (IJG libjpeg: integer IDCT, fancy upsampling, the same
 * YCbCr → RGB tables as the libjpeg-turbo behind Pillow), writing straight into the RGB array of the result.
 *
 * <p>Like Pillow's {@code Image.open(f).convert("RGB")}: greyscale is replicated to three channels, an embedded ICC
 * profile is ignored (the JDK would otherwise colour-convert through it: asking for the decoder's own bands turns
 * that off) and EXIF orientation is not applied. A file that ends before its last scan is refused as
 * {@link RejectionReason#TRUNCATED}, as Pillow raises "image file is truncated"; the decoder's other warnings
 * (extraneous bytes, which libjpeg also only warns about) are tolerated.
 */
final class JpegDecoder {

    /** The JDK decoder's warning when the data ends before the image does ("Premature end of JPEG file"). */
    private static final String TRUNCATION_WARNING = "Truncated File - Missing EOI marker";
    private static final int[] DECODER_RGB_BANDS = {0, 1, 2};

    private JpegDecoder() {}

    static ImageHeader readHeader(byte[] data) {
        JpegFrame frame = JpegFrame.read(data);
        return new ImageHeader(ImageFormat.JPEG, frame.width(), frame.height());
    }

    static RgbImage decode(byte[] data, ImageLimits limits) {
        JpegFrame frame = JpegFrame.read(data);
        limits.check(ImageFormat.JPEG, frame.width(), frame.height());
        int width = frame.width();
        int height = frame.height();
        byte[] rgb = new byte[width * height * 3];

        ImageReader reader = jpegReader();
        List<String> warnings = new ArrayList<>();
        reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(data))) {
            reader.setInput(in, true, true);
            ImageReadParam param = reader.getDefaultReadParam();
            param.setDestination(rgbImageOver(rgb, width, height));
            if (frame.components() == 3) {
                param.setSourceBands(DECODER_RGB_BANDS);
            }
            reader.read(0, param);
        } catch (IOException | RuntimeException e) {
            throw new ImageRejectedException(RejectionReason.CORRUPT,
                    "JPEG file is corrupt: " + e.getMessage(), e);
        } finally {
            reader.dispose();
        }
        if (warnings.contains(TRUNCATION_WARNING)) {
            throw new ImageRejectedException(RejectionReason.TRUNCATED,
                    "JPEG file is truncated: its data ends before the end of the image");
        }
        return new RgbImage(width, height, rgb);
    }

    private static ImageReader jpegReader() {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("jpeg");
        if (!readers.hasNext()) {
            throw new IllegalStateException("the JDK's JPEG decoder is not available");
        }
        return readers.next();
    }

    /** A BufferedImage whose raster is {@code rgb} itself, interleaved R, G, B. */
    private static BufferedImage rgbImageOver(byte[] rgb, int width, int height) {
        ComponentColorModel model = new ComponentColorModel(ColorSpace.getInstance(ColorSpace.CS_sRGB), false,
                false, Transparency.OPAQUE, DataBuffer.TYPE_BYTE);
        WritableRaster raster = Raster.createInterleavedRaster(new DataBufferByte(rgb, rgb.length), width, height,
                width * 3, 3, DECODER_RGB_BANDS, null);
        return new BufferedImage(model, raster, false, null);
    }
}
