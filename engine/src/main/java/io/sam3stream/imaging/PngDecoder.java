package io.sam3stream.imaging;

import io.sam3stream.device.ZlibInflate;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes PNG (every colour type and bit depth, Adam7 interlacing) to 8-bit RGB as Pillow's
 * {@code convert("RGB")} does (see {@link PngPixelConverter}). The header is read and checked against the limits
 * before the pixel buffer is allocated. Inflating is most of the decode, so where the system has libdeflate
 * ({@link ZlibInflate}) the image data is inflated in one call, into a buffer of exactly the scanlines the header
 * promises (about the image's size, beside the pixels); elsewhere, and for any stream that call refuses, it is
 * inflated one scanline at a time by the JDK's zlib, which reports what is wrong with it. Either way a stream that
 * inflates to more than the header promises is cut off, and both give the same pixels. Ancillary chunks (gamma,
 * colour profiles, text, EXIF) are ignored, as Pillow's conversion ignores them.
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
        return decode(data, limits, ZlibInflate.available());
    }

    /**
     * @param inflateWhole first try to inflate the whole image data in one call ({@link ZlibInflate}); the
     *                     streaming inflate decodes whatever that call refuses
     */
    static RgbImage decode(byte[] data, ImageLimits limits, boolean inflateWhole) {
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
        int[][] passes = header.interlaced() ? ADAM7 : NOT_INTERLACED;
        byte[] inflated = inflateWhole ? inflateWhole(chunks, chunk, scanlineBytes(header, passes)) : null;
        if (inflated != null) {
            decodePasses(header, passes, new InflatedScanlines(inflated), converter, rgb);
            return new RgbImage(width, height, rgb);
        }
        Inflater inflater = new Inflater();
        try {
            ImageData imageData = new ImageData(chunks, inflater);
            imageData.feed(chunk);
            decodePasses(header, passes, imageData, converter, rgb);
        } finally {
            inflater.end();
        }
        return new RgbImage(width, height, rgb);
    }

    /** The bytes of every scanline of every pass, filter bytes included: what the image data inflates to. */
    private static long scanlineBytes(PngHeader header, int[][] passes) {
        long total = 0;
        for (int[] pass : passes) {
            int[] size = passSize(header, pass);
            if (size != null) {
                total += (header.rowBytes(size[0]) + 1L) * size[1];
            }
        }
        return total;
    }

    /**
     * The image data inflated in one call, or null: the first IDAT chunk's data and that of every IDAT chunk right
     * after it, inflated to exactly {@code scanlineBytes}. Null also when that fails for any reason (a corrupt or
     * short stream, a damaged chunk after the data, no libdeflate): the streaming inflate then decodes the same data
     * and reports what is wrong, so that the errors do not depend on the path.
     */
    private static byte[] inflateWhole(PngChunkReader chunks, PngChunkReader.Chunk first, long scanlineBytes) {
        if (scanlineBytes > Integer.MAX_VALUE - 8) {
            return null;
        }
        List<PngChunkReader.Chunk> idats = new ArrayList<>(List.of(first));
        long compressed = first.length();
        PngChunkReader ahead = chunks.fork();
        try {
            for (PngChunkReader.Chunk next = ahead.next(); next.type() == PngChunkReader.IDAT; next = ahead.next()) {
                idats.add(next);
                compressed += next.length();
            }
        } catch (ImageRejectedException e) {
            // the streaming inflate meets this chunk only if the data before it is not enough, and reports it then
        }
        if (compressed > Integer.MAX_VALUE - 8) {
            return null;
        }
        byte[] stream = chunks.data();
        int offset = first.offset();
        if (idats.size() > 1) {
            stream = new byte[(int) compressed];
            offset = 0;
            int at = 0;
            for (PngChunkReader.Chunk idat : idats) {
                System.arraycopy(chunks.data(), idat.offset(), stream, at, idat.length());
                at += idat.length();
            }
        }
        byte[] scanlines = new byte[(int) scanlineBytes];
        return ZlibInflate.inflateExactly(stream, offset, (int) compressed, scanlines) ? scanlines : null;
    }

    private static void decodePasses(PngHeader header, int[][] passes, Scanlines scanlines,
            PngPixelConverter converter, byte[] rgb) {
        for (int[] pass : passes) {
            decodePass(header, pass, scanlines, converter, rgb);
        }
    }

    /**
     * A pass's width and height in pixels, or null for an empty pass (which has no scanlines, not even filter
     * bytes).
     */
    private static int[] passSize(PngHeader header, int[] pass) {
        int passWidth = (int) ((header.width() - pass[0] + pass[2] - 1) / pass[2]);
        int passHeight = (int) ((header.height() - pass[1] + pass[3] - 1) / pass[3]);
        return passWidth <= 0 || passHeight <= 0 ? null : new int[] {passWidth, passHeight};
    }

    private static void decodePass(PngHeader header, int[] pass, Scanlines scanlines, PngPixelConverter converter,
            byte[] rgb) {
        int width = (int) header.width();
        int height = (int) header.height();
        int x0 = pass[0];
        int y0 = pass[1];
        int dx = pass[2];
        int dy = pass[3];
        int[] size = passSize(header, pass);
        if (size == null) {
            return;
        }
        int passWidth = size[0];
        int rowLength = header.rowBytes(passWidth) + 1;
        byte[] row = new byte[rowLength];
        byte[] previous = new byte[rowLength];
        for (int y = y0; y < height; y += dy) {
            scanlines.readFully(row);
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

    /** Where the scanlines of the passes come from, in order. */
    private interface Scanlines {
        /** Fills {@code into} with the next scanline (its filter byte first). */
        void readFully(byte[] into);
    }

    /** The image data inflated at once: its scanlines one after another. */
    private static final class InflatedScanlines implements Scanlines {
        private final byte[] inflated;
        private int position;

        InflatedScanlines(byte[] inflated) {
            this.inflated = inflated;
        }

        @Override
        public void readFully(byte[] into) {
            System.arraycopy(inflated, position, into, 0, into.length);
            position += into.length;
        }
    }

    /** The zlib stream spread over consecutive IDAT chunks, inflated on demand. */
    private static final class ImageData implements Scanlines {
        private final PngChunkReader chunks;
        private final Inflater inflater;

        ImageData(PngChunkReader chunks, Inflater inflater) {
            this.chunks = chunks;
            this.inflater = inflater;
        }

        void feed(PngChunkReader.Chunk idat) {
            inflater.setInput(chunks.data(), idat.offset(), idat.length());
        }

        @Override
        public void readFully(byte[] into) {
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
