package io.sam3stream.imaging;

import java.nio.charset.StandardCharsets;

/** The encoded formats accepted as input, recognised by their signatures (never by a file name or MIME type). */
public enum ImageFormat {
    PNG,
    JPEG;

    /** The eight bytes every PNG file starts with (PNG specification §5.2); never modified. */
    static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /**
     * The format of an encoded image.
     *
     * @throws ImageRejectedException {@link RejectionReason#EMPTY} for no bytes, {@link RejectionReason#TRUNCATED}
     *                                for a prefix of a PNG or JPEG signature, else
     *                                {@link RejectionReason#UNSUPPORTED_FORMAT} naming the format when it is a
     *                                common one
     */
    public static ImageFormat detect(byte[] data) {
        if (data.length == 0) {
            throw new ImageRejectedException(RejectionReason.EMPTY, "the image is empty (0 bytes)");
        }
        if (startsWith(data, PNG_SIGNATURE)) {
            return PNG;
        }
        if (data.length >= 3 && (data[0] & 0xff) == 0xff && (data[1] & 0xff) == 0xd8 && (data[2] & 0xff) == 0xff) {
            return JPEG;
        }
        if (isPrefixOf(data, PNG_SIGNATURE) || isPrefixOf(data, new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff})) {
            throw new ImageRejectedException(RejectionReason.TRUNCATED,
                    "the image is truncated: only " + data.length + " bytes");
        }
        String known = knownOtherFormat(data);
        String what = known == null ? "the data is not an image format this service reads"
                : known + " images are not supported";
        throw new ImageRejectedException(RejectionReason.UNSUPPORTED_FORMAT, what + "; send PNG or JPEG");
    }

    private static String knownOtherFormat(byte[] data) {
        if (startsWith(data, ascii("GIF87a")) || startsWith(data, ascii("GIF89a"))) {
            return "GIF";
        }
        if (startsWith(data, ascii("BM"))) {
            return "BMP";
        }
        if (startsWith(data, ascii("RIFF")) && data.length >= 12 && "WEBP".equals(asciiAt(data, 8, 4))) {
            return "WebP";
        }
        if (startsWith(data, new byte[] {'I', 'I', 42, 0}) || startsWith(data, new byte[] {'M', 'M', 0, 42})) {
            return "TIFF";
        }
        if (data.length >= 12 && "ftyp".equals(asciiAt(data, 4, 4))) {
            return "HEIF/AVIF";
        }
        return null;
    }

    private static boolean startsWith(byte[] data, byte[] prefix) {
        if (data.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (data[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPrefixOf(byte[] data, byte[] signature) {
        if (data.length >= signature.length) {
            return false;
        }
        for (int i = 0; i < data.length; i++) {
            if (data[i] != signature[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String asciiAt(byte[] data, int offset, int length) {
        return new String(data, offset, length, StandardCharsets.US_ASCII);
    }
}
