package io.sam3stream.imaging;

/**
 * What libjpeg learns from a JPEG file's marker segments before its first scan (ITU T.81 §B.2): the frame header
 * (SOFn) and the markers that decide its colour space (JFIF APP0, Adobe APP14). Only frames the JDK decoder handles
 * the way libjpeg does are accepted: 8-bit baseline, extended sequential or progressive Huffman-coded, with one
 * (grey) or three components.
 *
 * @param width          samples per line
 * @param height         lines (0 when a DNL marker defines it later)
 * @param componentIds   the frame's component identifiers, one per component (1 or 3)
 * @param sawJfif        whether a JFIF APP0 segment precedes the first scan
 * @param adobeTransform the colour transform of an Adobe APP14 segment, or -1 when there is none
 */
record JpegHeader(int width, int height, int[] componentIds, boolean sawJfif, int adobeTransform) {

    private static final int SOI = 0xd8;
    private static final int EOI = 0xd9;
    private static final int SOS = 0xda;
    private static final int TEM = 0x01;
    private static final int APP0 = 0xe0;
    private static final int APP14 = 0xee;
    private static final int SOF0_BASELINE = 0xc0;
    private static final int SOF1_EXTENDED = 0xc1;
    private static final int SOF2_PROGRESSIVE = 0xc2;
    private static final int DHT = 0xc4;
    private static final int JPG = 0xc8;
    private static final int DAC = 0xcc;
    /** Shortest APP0/APP14 bodies libjpeg accepts as JFIF/Adobe markers (jdmarker.c APP0_DATA_LEN, APP14_DATA_LEN). */
    private static final int JFIF_MIN_BODY = 14;
    private static final int ADOBE_MIN_BODY = 12;

    int components() {
        return componentIds.length;
    }

    /**
     * Whether three components hold YCbCr (to be converted to RGB) rather than RGB, decided as libjpeg(-turbo)
     * decides it ({@code jdapimin.c default_decompress_parms}), which is what Pillow gets: a JFIF marker means
     * YCbCr; else an Adobe marker's transform 0 means RGB and any other transform YCbCr; else component IDs
     * 'R', 'G', 'B' mean RGB and anything else YCbCr.
     */
    boolean isYCbCr() {
        if (sawJfif) {
            return true;
        }
        if (adobeTransform >= 0) {
            return adobeTransform != 0;
        }
        return !(componentIds[0] == 'R' && componentIds[1] == 'G' && componentIds[2] == 'B');
    }

    /** Reads the marker segments up to the first scan. */
    static JpegHeader read(byte[] data) {
        Frame frame = null;
        boolean sawJfif = false;
        int adobeTransform = -1;
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
            if (marker == SOI || marker == EOI || marker == 0) {
                throw corrupt("marker 0x" + Integer.toHexString(marker) + " before the first scan");
            }
            if (marker == SOS) {
                if (frame == null) {
                    throw corrupt("a scan starts before the frame header");
                }
                return new JpegHeader(frame.width, frame.height, frame.componentIds, sawJfif, adobeTransform);
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
            int body = pos + 2;
            int bodyLength = length - 2;
            if (isFrameMarker(marker)) {
                if (frame != null) {
                    throw corrupt("a second frame header");
                }
                frame = Frame.parse(data, body, bodyLength, marker);
            } else if (marker == APP0 && bodyLength >= JFIF_MIN_BODY && startsWith(data, body, "JFIF\0")) {
                sawJfif = true;
            } else if (marker == APP14 && bodyLength >= ADOBE_MIN_BODY && startsWith(data, body, "Adobe")) {
                adobeTransform = data[body + 11] & 0xff;
            }
            pos += length;
        }
    }

    private static boolean isFrameMarker(int marker) {
        return marker >= 0xc0 && marker <= 0xcf && marker != DHT && marker != JPG && marker != DAC;
    }

    private static boolean startsWith(byte[] data, int offset, String ascii) {
        for (int i = 0; i < ascii.length(); i++) {
            if (data[offset + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The fields of a frame header. */
    private record Frame(int width, int height, int[] componentIds) {

        static Frame parse(byte[] data, int body, int bodyLength, int marker) {
            if (bodyLength < 6) {
                throw corrupt("frame header of " + bodyLength + " bytes");
            }
            if (marker != SOF0_BASELINE && marker != SOF1_EXTENDED && marker != SOF2_PROGRESSIVE) {
                String kind = switch (marker) {
                    case 0xc3 -> "lossless";
                    case 0xc5, 0xc6, 0xc7 -> "hierarchical";
                    default -> "arithmetic-coded";
                };
                throw unsupported(kind + " JPEG (frame type SOF" + (marker - 0xc0) + ")");
            }
            int precision = data[body] & 0xff;
            int height = ((data[body + 1] & 0xff) << 8) | (data[body + 2] & 0xff);
            int width = ((data[body + 3] & 0xff) << 8) | (data[body + 4] & 0xff);
            int components = data[body + 5] & 0xff;
            if (precision != 8) {
                throw unsupported(precision + "-bit JPEG");
            }
            if (components == 4) {
                throw unsupported("CMYK/YCCK JPEG (4 colour components)");
            }
            if (components != 1 && components != 3) {
                throw unsupported("JPEG with " + components + " colour components");
            }
            if (bodyLength < 6 + 3 * components) {
                throw corrupt("frame header of " + bodyLength + " bytes for " + components + " components");
            }
            int[] ids = new int[components];
            for (int c = 0; c < components; c++) {
                ids[c] = data[body + 6 + 3 * c] & 0xff;
            }
            return new Frame(width, height, ids);
        }
    }

    private static ImageRejectedException truncated() {
        return new ImageRejectedException(RejectionReason.TRUNCATED,
                "JPEG file is truncated: it ends before its first scan");
    }

    private static ImageRejectedException corrupt(String why) {
        return new ImageRejectedException(RejectionReason.CORRUPT, "JPEG file is corrupt: " + why);
    }

    private static ImageRejectedException unsupported(String what) {
        return new ImageRejectedException(RejectionReason.UNSUPPORTED_ENCODING,
                what + " is not supported; send an 8-bit RGB or greyscale JPEG, or a PNG");
    }
}
