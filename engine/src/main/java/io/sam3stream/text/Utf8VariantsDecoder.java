package io.sam3stream.text;

import java.util.Optional;

/**
 * Strict UTF-8 decoding extended with the two non-standard forms that ftfy's {@code utf-8-variants} codec accepts:
 * CESU-8 (a supplementary character written as the 3-byte encodings of its two UTF-16 surrogates) and Java's
 * modified UTF-8 null ({@code C0 80}). Everything else must be well-formed UTF-8: no overlong forms, no lone
 * surrogates, nothing above U+10FFFF, no truncated sequence.
 *
 * <p>ftfy switches to this codec only when byte ED or C0 occurs, but the two forms start with those bytes and
 * standard UTF-8 rejects them, so applying it always gives the same results.
 */
final class Utf8VariantsDecoder {

    private Utf8VariantsDecoder() {}

    /** The decoded text, or empty if the bytes are not (variant) UTF-8. */
    static Optional<String> decode(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length);
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xFF;
            if (lead < 0x80) {
                out.append((char) lead);
                i++;
            } else if (lead == 0xC0 && continuationAt(bytes, i + 1, 0x80, 0x80)) {
                out.append('\u0000');
                i += 2;
            } else if (lead == 0xED && isCesu8Pair(bytes, i)) {
                int high = 0xD800 | ((bytes[i + 1] & 0x0F) << 6) | (bytes[i + 2] & 0x3F);
                int low = 0xDC00 | ((bytes[i + 4] & 0x0F) << 6) | (bytes[i + 5] & 0x3F);
                out.appendCodePoint(Character.toCodePoint((char) high, (char) low));
                i += 6;
            } else {
                int length = standardSequenceLength(bytes, i);
                if (length == 0) {
                    return Optional.empty();
                }
                out.appendCodePoint(standardCodePoint(bytes, i, length));
                i += length;
            }
        }
        return Optional.of(out.toString());
    }

    /** {@code ED A0..AF 80..BF ED B0..BF 80..BF}: a high surrogate followed by a low one. */
    private static boolean isCesu8Pair(byte[] bytes, int i) {
        return continuationAt(bytes, i + 1, 0xA0, 0xAF) && continuationAt(bytes, i + 2, 0x80, 0xBF)
                && i + 3 < bytes.length && (bytes[i + 3] & 0xFF) == 0xED
                && continuationAt(bytes, i + 4, 0xB0, 0xBF) && continuationAt(bytes, i + 5, 0x80, 0xBF);
    }

    /**
     * Length of the well-formed UTF-8 sequence at {@code i} (Unicode Table 3-7), or 0 if it is ill-formed. The
     * ranges of the second byte exclude overlong forms, surrogates and code points above U+10FFFF.
     */
    private static int standardSequenceLength(byte[] bytes, int i) {
        int lead = bytes[i] & 0xFF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            return continuationAt(bytes, i + 1, 0x80, 0xBF) ? 2 : 0;
        }
        if (lead >= 0xE0 && lead <= 0xEF) {
            int low = lead == 0xE0 ? 0xA0 : 0x80;
            int high = lead == 0xED ? 0x9F : 0xBF;
            return continuationAt(bytes, i + 1, low, high) && continuationAt(bytes, i + 2, 0x80, 0xBF) ? 3 : 0;
        }
        if (lead >= 0xF0 && lead <= 0xF4) {
            int low = lead == 0xF0 ? 0x90 : 0x80;
            int high = lead == 0xF4 ? 0x8F : 0xBF;
            return continuationAt(bytes, i + 1, low, high) && continuationAt(bytes, i + 2, 0x80, 0xBF)
                    && continuationAt(bytes, i + 3, 0x80, 0xBF) ? 4 : 0;
        }
        return 0;
    }

    private static int standardCodePoint(byte[] bytes, int i, int length) {
        int cp = bytes[i] & (0xFF >> (length + 1));
        for (int k = 1; k < length; k++) {
            cp = (cp << 6) | (bytes[i + k] & 0x3F);
        }
        return cp;
    }

    private static boolean continuationAt(byte[] bytes, int i, int low, int high) {
        if (i >= bytes.length) {
            return false;
        }
        int b = bytes[i] & 0xFF;
        return b >= low && b <= high;
    }
}
