package io.sam3stream.imaging;

/**
 * The frame header (SOFn segment) of a JPEG file, found by walking the marker segments that precede it (ITU T.81
 * §B.2). Only the frames the JDK decoder handles the way libjpeg does are accepted: 8-bit baseline, extended
 * sequential or progressive Huffman-coded, with one (grey) or three (YCbCr/RGB) components.
 *
 * @param width      samples per line
 * @param height     lines (0 when a DNL marker defines it later)
 * @param components 1 or 3
 */
record JpegFrame(int width, int height, int components) {

    private static final int SOI = 0xd8;
    private static final int EOI = 0xd9;
    private static final int SOS = 0xda;
    private static final int TEM = 0x01;
    private static final int SOF0_BASELINE = 0xc0;
    private static final int SOF1_EXTENDED = 0xc1;
    private static final int SOF2_PROGRESSIVE = 0xc2;
    private static final int DHT = 0xc4;
    private static final int JPG = 0xc8;
    private static final int DAC = 0xcc;

    /** Finds and validates the frame header. */
    static JpegFrame read(byte[] data) {
        int pos = 2; // after SOI
        while (true) {
            if (pos >= data.length) {
                throw truncated();
            }
            if ((data[pos] & 0xff) != 0xff) {
                throw corrupt("expected a marker at byte " + pos);
            }
            while (pos < data.length && (data[pos] & 0xff) == 0xff) {
                pos++; // a marker may be preceded by any number of fill bytes
            }
            if (pos >= data.length) {
                throw truncated();
            }
            int marker = data[pos++] & 0xff;
            if (marker == TEM || (marker >= 0xd0 && marker <= 0xd7)) {
                continue; // stand-alone markers carry no length
            }
            if (marker == SOI || marker == EOI || marker == SOS || marker == 0) {
                throw corrupt("marker 0x" + Integer.toHexString(marker) + " before the frame header");
            }
            if (pos + 2 > data.length) {
                throw truncated();
            }
            int length = ((data[pos] & 0xff) << 8) | (data[pos + 1] & 0xff);
            if (length < 2) {
                throw corrupt("segment length " + length + " at byte " + pos);
            }
            if (pos + length > data.length) {
                throw truncated();
            }
            if (isFrameMarker(marker)) {
                return parse(data, pos, length, marker);
            }
            pos += length;
        }
    }

    private static boolean isFrameMarker(int marker) {
        return marker >= 0xc0 && marker <= 0xcf && marker != DHT && marker != JPG && marker != DAC;
    }

    private static JpegFrame parse(byte[] data, int pos, int length, int marker) {
        if (length < 8) {
            throw corrupt("frame header of " + length + " bytes");
        }
        if (marker != SOF0_BASELINE && marker != SOF1_EXTENDED && marker != SOF2_PROGRESSIVE) {
            String kind = switch (marker) {
                case 0xc3 -> "lossless";
                case 0xc5, 0xc6, 0xc7 -> "hierarchical";
                default -> "arithmetic-coded";
            };
            throw unsupported(kind + " JPEG (frame type SOF" + (marker - 0xc0) + ")");
        }
        int precision = data[pos + 2] & 0xff;
        int height = ((data[pos + 3] & 0xff) << 8) | (data[pos + 4] & 0xff);
        int width = ((data[pos + 5] & 0xff) << 8) | (data[pos + 6] & 0xff);
        int components = data[pos + 7] & 0xff;
        if (precision != 8) {
            throw unsupported(precision + "-bit JPEG");
        }
        if (components == 4) {
            throw unsupported("CMYK/YCCK JPEG (4 colour components)");
        }
        if (components != 1 && components != 3) {
            throw unsupported("JPEG with " + components + " colour components");
        }
        if (length < 8 + 3 * components) {
            throw corrupt("frame header of " + length + " bytes for " + components + " components");
        }
        return new JpegFrame(width, height, components);
    }

    private static ImageRejectedException truncated() {
        return new ImageRejectedException(RejectionReason.TRUNCATED,
                "JPEG file is truncated: it ends before its frame header");
    }

    private static ImageRejectedException corrupt(String why) {
        return new ImageRejectedException(RejectionReason.CORRUPT, "JPEG file is corrupt: " + why);
    }

    private static ImageRejectedException unsupported(String what) {
        return new ImageRejectedException(RejectionReason.UNSUPPORTED_ENCODING,
                what + " is not supported; send an 8-bit RGB or greyscale JPEG, or a PNG");
    }
}
