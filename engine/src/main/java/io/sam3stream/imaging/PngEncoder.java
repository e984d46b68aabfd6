package io.sam3stream.imaging;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A small PNG writer (PNG specification §11): signature, IHDR, a single IDAT holding the zlib stream of all
 * scanlines, IEND; scanlines use filter type 0 (none). Masks are compressed by {@link MaskScanlineDeflater}, which
 * knows they are runs of 0 and 255; images by {@link Deflater}.
 */
public final class PngEncoder {

    /** Images (overlays) are looked at, not produced in bulk: zlib's default trade of size for time suits them. */
    private static final int IMAGE_LEVEL = Deflater.DEFAULT_COMPRESSION;
    private static final int GREY = 0;
    private static final int TRUECOLOUR = 2;

    private PngEncoder() {}

    /** An 8-bit greyscale PNG of the mask: 255 inside the instance, 0 outside. */
    public static byte[] encodeMask(BinaryMask mask) {
        return png(mask.width(), mask.height(), GREY, MaskScanlineDeflater.compress(mask));
    }

    /** An 8-bit RGB PNG of the image. */
    public static byte[] encodeRgb(RgbImage image) {
        int rowBytes = image.width() * 3;
        byte[] row = new byte[1 + rowBytes];
        try (ZlibScanlines scanlines = new ZlibScanlines((long) image.height() * row.length)) {
            for (int y = 0; y < image.height(); y++) {
                System.arraycopy(image.pixels(), y * rowBytes, row, 1, rowBytes);
                scanlines.add(row);
            }
            return png(image.width(), image.height(), TRUECOLOUR, scanlines.finish());
        }
    }

    private static byte[] png(int width, int height, int colourType, byte[] zlib) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(zlib.length + 64);
        out.writeBytes(ImageFormat.PNG_SIGNATURE);
        byte[] ihdr = new byte[13];
        putInt(ihdr, 0, width);
        putInt(ihdr, 4, height);
        ihdr[8] = 8; // bit depth
        ihdr[9] = (byte) colourType;
        // compression, filter method and interlace all 0
        writeChunk(out, "IHDR", ihdr);
        writeChunk(out, "IDAT", zlib);
        writeChunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void writeChunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] header = new byte[8];
        putInt(header, 0, data.length);
        System.arraycopy(type.getBytes(StandardCharsets.US_ASCII), 0, header, 4, 4);
        CRC32 crc = new CRC32();
        crc.update(header, 4, 4);
        crc.update(data);
        byte[] trailer = new byte[4];
        putInt(trailer, 0, (int) crc.getValue());
        out.writeBytes(header);
        out.writeBytes(data);
        out.writeBytes(trailer);
    }

    private static void putInt(byte[] b, int offset, int value) {
        b[offset] = (byte) (value >>> 24);
        b[offset + 1] = (byte) (value >>> 16);
        b[offset + 2] = (byte) (value >>> 8);
        b[offset + 3] = (byte) value;
    }

    /** Scanlines (filter byte 0 prepended by the caller) deflated as they arrive into one zlib stream. */
    private static final class ZlibScanlines implements AutoCloseable {
        private final Deflater deflater;
        private final ByteArrayOutputStream compressed;
        private final byte[] buffer = new byte[1 << 16];

        ZlibScanlines(long rawBytes) {
            deflater = new Deflater(IMAGE_LEVEL);
            compressed = new ByteArrayOutputStream((int) Math.min(1 << 20, rawBytes / 16 + 64));
        }

        void add(byte[] scanline) {
            deflater.setInput(scanline);
            while (!deflater.needsInput()) {
                compressed.write(buffer, 0, deflater.deflate(buffer));
            }
        }

        byte[] finish() {
            deflater.finish();
            while (!deflater.finished()) {
                compressed.write(buffer, 0, deflater.deflate(buffer));
            }
            return compressed.toByteArray();
        }

        @Override
        public void close() {
            deflater.end();
        }
    }
}
