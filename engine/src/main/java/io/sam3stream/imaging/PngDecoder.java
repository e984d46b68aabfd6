package io.sam3stream.imaging;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes PNG (every colour type and bit depth, Adam7 interlacing) to 8-bit RGB as Pillow's
 * {@code convert("RGB")} does (see {@link PngPixelConverter}). The header is read and checked against the limits
 * before the pixel buffer is allocated; the compressed data is inflated one scanline at a time, so nothing larger
 * than the final image is ever held and a stream that inflates to more than the header promises is cut off.
 * Ancillary chunks (gamma, colour profiles, text, EXIF) are ignored, as Pillow's conversion ignores them.
 */
final class PngDecoder {

    /** Adam7 passes: first column, first row, column step, row step (PNG specification §8.2). */
    private static final int[][] ADAM7 = {
        {0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}
    };
    private static final int[][] NOT_INTERLACED = {{0, 0, 1, 1}};
    private static final int MAX_PALETTE_BYTES = 256 * 3;

    private PngDecoder() {}

    static RgbImage decode(byte[] data, ImageLimits limits) {
        PngChunkReader chunks = new PngChunkReader(data);
        PngHeader header = PngHeader.read(chunks);
        limits.check(ImageFormat.PNG, header.width(), header.height());
        int width = (int) header.width();
        int height = (int) header.height();

        byte[] plte = null;
        PngChunkReader.Chunk chunk = chunks.next();
        while (chunk.type() != PngChunkReader.IDAT) {
            if (chunk.type() == PngChunkReader.IEND) {
                throw corrupt("it has no image data (IDAT)");
            }
            if (chunk.type() == PngChunkReader.PLTE) {
                plte = readPalette(data, chunk);
            }
            chunk = chunks.next();
        }

        PngPixelConverter converter = new PngPixelConverter(header, plte);
        byte[] rgb = new byte[width * height * 3]; // bounded by ImageLimits.LARGEST_DECODABLE_PIXELS
        Inflater inflater = new Inflater();
        try {
            ImageData imageData = new ImageData(chunks, inflater);
            imageData.feed(chunk);
            for (int[] pass : header.interlaced() ? ADAM7 : NOT_INTERLACED) {
                decodePass(header, pass, width, height, imageData, converter, rgb);
            }
        } finally {
            inflater.end();
        }
        return new RgbImage(width, height, rgb);
    }

    private static void decodePass(PngHeader header, int[] pass, int width, int height, ImageData imageData,
            PngPixelConverter converter, byte[] rgb) {
        int x0 = pass[0];
        int y0 = pass[1];
        int dx = pass[2];
        int dy = pass[3];
        int passWidth = (width - x0 + dx - 1) / dx;
        int passHeight = (height - y0 + dy - 1) / dy;
        if (passWidth <= 0 || passHeight <= 0) {
            return; // an empty pass has no scanlines, not even filter bytes
        }
        int rowLength = header.rowBytes(passWidth) + 1;
        byte[] row = new byte[rowLength];
        byte[] previous = new byte[rowLength];
        for (int y = y0; y < height; y += dy) {
            imageData.readFully(row);
            unfilter(row, previous, rowLength, header.filterStride());
            converter.convert(row, passWidth, rgb, (y * width + x0) * 3, dx * 3);
            byte[] swap = previous;
            previous = row;
            row = swap;
        }
    }

    /**
     * Reverses the scanline filter in place (PNG specification §9). {@code row[0]} is the filter type; the
     * previous scanline of the same pass is all zeros for the first row.
     */
    static void unfilter(byte[] row, byte[] previous, int length, int stride) {
        switch (row[0]) {
            case 0 -> { }
            case 1 -> {
                for (int i = 1 + stride; i < length; i++) {
                    row[i] += row[i - stride];
                }
            }
            case 2 -> {
                for (int i = 1; i < length; i++) {
                    row[i] += previous[i];
                }
            }
            case 3 -> {
                for (int i = 1; i <= stride && i < length; i++) {
                    row[i] += (byte) ((previous[i] & 0xff) >>> 1);
                }
                for (int i = 1 + stride; i < length; i++) {
                    row[i] += (byte) (((row[i - stride] & 0xff) + (previous[i] & 0xff)) >>> 1);
                }
            }
            case 4 -> {
                for (int i = 1; i <= stride && i < length; i++) {
                    row[i] += previous[i]; // Paeth with a = c = 0 predicts b
                }
                for (int i = 1 + stride; i < length; i++) {
                    row[i] += (byte) paeth(row[i - stride] & 0xff, previous[i] & 0xff, previous[i - stride] & 0xff);
                }
            }
            default -> throw corrupt("unknown scanline filter type " + (row[0] & 0xff));
        }
    }

    private static int paeth(int a, int b, int c) {
        int pa = Math.abs(b - c);
        int pb = Math.abs(a - c);
        int pc = Math.abs(a + b - 2 * c);
        if (pa <= pb && pa <= pc) {
            return a;
        }
        return pb <= pc ? b : c;
    }

    private static byte[] readPalette(byte[] data, PngChunkReader.Chunk chunk) {
        if (chunk.length() % 3 != 0 || chunk.length() > MAX_PALETTE_BYTES) {
            throw corrupt("its PLTE chunk has " + chunk.length() + " bytes");
        }
        byte[] plte = new byte[chunk.length()];
        System.arraycopy(data, chunk.offset(), plte, 0, plte.length);
        return plte;
    }

    private static ImageRejectedException corrupt(String why) {
        return new ImageRejectedException(RejectionReason.CORRUPT, "PNG file is corrupt: " + why);
    }

    /** The zlib stream spread over consecutive IDAT chunks, inflated on demand. */
    private static final class ImageData {
        private final PngChunkReader chunks;
        private final Inflater inflater;

        ImageData(PngChunkReader chunks, Inflater inflater) {
            this.chunks = chunks;
            this.inflater = inflater;
        }

        void feed(PngChunkReader.Chunk idat) {
            inflater.setInput(chunks.data(), idat.offset(), idat.length());
        }

        void readFully(byte[] into) {
            int filled = 0;
            while (filled < into.length) {
                int n;
                try {
                    n = inflater.inflate(into, filled, into.length - filled);
                } catch (DataFormatException e) {
                    throw new ImageRejectedException(RejectionReason.CORRUPT,
                            "PNG file is corrupt: invalid compressed image data (" + e.getMessage() + ")", e);
                }
                filled += n;
                if (n > 0) {
                    continue;
                }
                if (inflater.finished() || inflater.needsDictionary()) {
                    throw corrupt("its compressed image data ends before the last scanline");
                }
                if (inflater.needsInput()) {
                    PngChunkReader.Chunk next = chunks.next();
                    if (next.type() != PngChunkReader.IDAT) {
                        throw corrupt("its image data ends before the last scanline (next chunk " + next.name() + ")");
                    }
                    feed(next);
                }
            }
        }
    }
}
