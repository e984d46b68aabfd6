package io.sam3stream.imageheader;

/**
 * Format and size of an encoded image, read from its first bytes without decoding pixels, so that a service can
 * refuse an oversized or malformed image before allocating anything proportional to its size.
 *
 * @param format PNG or JPEG
 * @param width  width in pixels (> 0)
 * @param height height in pixels (> 0)
 */
public record ImageHeader(Format format, int width, int height) {

    /** The encodings the service accepts. */
    public enum Format { PNG, JPEG }

    /** Pixel count as a long (a 65535² JPEG overflows an int). */
    public long pixels() {
        return (long) width * height;
    }

    /**
     * Reads the header of a PNG (signature + IHDR) or JPEG (markers up to the first SOFn frame header).
     *
     * @throws MalformedImageException if the bytes are neither, are cut short before the size, or declare a zero side
     */
    public static ImageHeader read(byte[] data) {
        if (data.length >= 8 && (data[0] & 0xff) == 0x89 && data[1] == 'P' && data[2] == 'N' && data[3] == 'G'
                && data[4] == '\r' && data[5] == '\n' && data[6] == 0x1a && data[7] == '\n') {
            return readPng(data);
        }
        if (data.length >= 3 && (data[0] & 0xff) == 0xff && (data[1] & 0xff) == 0xd8 && (data[2] & 0xff) == 0xff) {
            return readJpeg(data);
        }
        throw new MalformedImageException("not a PNG or JPEG image");
    }

    private static ImageHeader readPng(byte[] d) {
        // signature (8), chunk length (4), "IHDR" (4), width (4), height (4)
        if (d.length < 24 || d[12] != 'I' || d[13] != 'H' || d[14] != 'D' || d[15] != 'R') {
            throw new MalformedImageException("truncated PNG: no IHDR chunk");
        }
        long w = u32(d, 16);
        long h = u32(d, 20);
        if (w == 0 || h == 0) {
            throw new MalformedImageException("PNG declares a zero side (" + w + "x" + h + ")");
        }
        if (w > Integer.MAX_VALUE || h > Integer.MAX_VALUE) {
            throw new MalformedImageException("PNG declares an impossible size " + w + "x" + h);
        }
        return new ImageHeader(Format.PNG, (int) w, (int) h);
    }

    private static ImageHeader readJpeg(byte[] d) {
        int i = 2;
        while (i + 4 <= d.length) {
            if ((d[i] & 0xff) != 0xff) {
                throw new MalformedImageException("corrupt JPEG: expected a marker at byte " + i);
            }
            int marker = d[i + 1] & 0xff;
            if (marker == 0xff) { // fill byte
                i++;
                continue;
            }
            if (marker == 0xd8 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { // no length
                i += 2;
                continue;
            }
            int length = ((d[i + 2] & 0xff) << 8) | (d[i + 3] & 0xff);
            if (length < 2) {
                throw new MalformedImageException("corrupt JPEG: segment length " + length);
            }
            boolean startOfFrame = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8
                    && marker != 0xcc;
            if (startOfFrame) {
                if (i + 9 > d.length) {
                    break;
                }
                int h = ((d[i + 5] & 0xff) << 8) | (d[i + 6] & 0xff);
                int w = ((d[i + 7] & 0xff) << 8) | (d[i + 8] & 0xff);
                if (w == 0 || h == 0) {
                    throw new MalformedImageException("JPEG declares a zero side (" + w + "x" + h + ")");
                }
                return new ImageHeader(Format.JPEG, w, h);
            }
            if (marker == 0xd9 || marker == 0xda) {
                throw new MalformedImageException("corrupt JPEG: image data before any frame header");
            }
            i += 2 + length;
        }
        throw new MalformedImageException("truncated JPEG: no frame header");
    }

    private static long u32(byte[] d, int at) {
        return ((long) (d[at] & 0xff) << 24) | ((d[at + 1] & 0xff) << 16) | ((d[at + 2] & 0xff) << 8)
                | (d[at + 3] & 0xff);
    }
}
