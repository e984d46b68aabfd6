package io.sam3stream.imaging;

/**
 * Turns unfiltered PNG scanlines into 8-bit RGB exactly as Pillow's {@code Image.open(f).convert("RGB")} does, the
 * input path of upstream SAM3:
 * <ul>
 *   <li>alpha (an alpha channel or a tRNS chunk) is dropped, not composited;</li>
 *   <li>grey of 1, 2 or 4 bits is scaled to 0..255; palette indices are looked up in PLTE, and an index past the
 *       end of PLTE (or any index when PLTE is missing) shows as grey (i, i, i), because Pillow's palette starts as
 *       a grey ramp;</li>
 *   <li>16-bit grey is <em>clamped</em> to 255 (Pillow opens it as mode I/I;16, whose conversion to RGB clips);
 *       every other 16-bit type keeps the high byte of each sample.</li>
 * </ul>
 */
final class PngPixelConverter {

    private static final int PALETTE_ENTRIES = 256;

    private final PngHeader header;
    /** RGB triples by sample value for palette and grey of up to 8 bits; null for the other types. */
    private final byte[] lookup;

    /**
     * @param plte the PLTE chunk's bytes, or null when there is none
     */
    PngPixelConverter(PngHeader header, byte[] plte) {
        this.header = header;
        this.lookup = switch (header.colorType()) {
            case PngHeader.PALETTE -> paletteLookup(plte);
            case PngHeader.GRAY -> header.bitDepth() <= 8 ? greyLookup(header.bitDepth()) : null;
            default -> null;
        };
    }

    /**
     * Converts {@code count} pixels of one scanline.
     *
     * @param row    the unfiltered scanline, its first pixel at index 1 (index 0 holds the filter type)
     * @param rgb    the destination image
     * @param out    offset in {@code rgb} of the first pixel's R
     * @param stride bytes between consecutive pixels of this scanline in {@code rgb} (3, or 3 × the Adam7 step)
     */
    void convert(byte[] row, int count, byte[] rgb, int out, int stride) {
        if (lookup != null) {
            convertIndexed(row, count, rgb, out, stride);
        } else if (header.colorType() == PngHeader.GRAY) {
            convertGrey16(row, count, rgb, out, stride);
        } else {
            convertDirect(row, count, rgb, out, stride);
        }
    }

    private void convertIndexed(byte[] row, int count, byte[] rgb, int out, int stride) {
        int depth = header.bitDepth();
        int perByte = 8 / depth;
        int mask = (1 << depth) - 1;
        for (int k = 0; k < count; k++, out += stride) {
            int index;
            if (depth == 8) {
                index = row[1 + k] & 0xff;
            } else {
                int shift = 8 - depth * (k % perByte + 1);
                index = ((row[1 + k / perByte] & 0xff) >>> shift) & mask;
            }
            rgb[out] = lookup[3 * index];
            rgb[out + 1] = lookup[3 * index + 1];
            rgb[out + 2] = lookup[3 * index + 2];
        }
    }

    private static void convertGrey16(byte[] row, int count, byte[] rgb, int out, int stride) {
        for (int k = 0, p = 1; k < count; k++, p += 2, out += stride) {
            byte v = row[p] != 0 ? (byte) 255 : row[p + 1];
            rgb[out] = v;
            rgb[out + 1] = v;
            rgb[out + 2] = v;
        }
    }

    /** RGB, RGBA and grey + alpha at 8 or 16 bits: copy the (high) byte of each colour sample. */
    private void convertDirect(byte[] row, int count, byte[] rgb, int out, int stride) {
        int sampleBytes = header.bitDepth() / 8;
        int pixelBytes = header.channels() * sampleBytes;
        if (pixelBytes == 3 && stride == 3) {
            System.arraycopy(row, 1, rgb, out, 3 * count);
            return;
        }
        int green = header.colorType() == PngHeader.GRAY_ALPHA ? 0 : sampleBytes;
        int blue = 2 * green;
        for (int k = 0, p = 1; k < count; k++, p += pixelBytes, out += stride) {
            rgb[out] = row[p];
            rgb[out + 1] = row[p + green];
            rgb[out + 2] = row[p + blue];
        }
    }

    private static byte[] paletteLookup(byte[] plte) {
        byte[] table = greyLookup(8);
        if (plte != null) {
            System.arraycopy(plte, 0, table, 0, plte.length);
        }
        return table;
    }

    private static byte[] greyLookup(int depth) {
        int max = (1 << depth) - 1;
        byte[] table = new byte[3 * PALETTE_ENTRIES];
        for (int v = 0; v <= max; v++) {
            byte grey = (byte) (v * 255 / max);
            table[3 * v] = grey;
            table[3 * v + 1] = grey;
            table[3 * v + 2] = grey;
        }
        return table;
    }
}
