package io.sam3stream.text;

/**
 * CLIP's reversible byte-to-character table ({@code bytes_to_unicode} in upstream {@code tokenizer_ve.py}): every
 * byte becomes one printable character so that BPE can work on strings without whitespace or control characters.
 * Bytes that are printable Latin-1 characters ({@code !..~}, {@code ¡..¬}, {@code ®..ÿ}) stand for themselves; the
 * other 68 bytes take the characters U+0100, U+0101, ... in byte order.
 */
final class ByteLevelAlphabet {

    /** The character of each byte, indexed by unsigned byte value. */
    private static final char[] SYMBOL_OF_BYTE = new char[256];

    /** The 256 characters in upstream's dictionary order: printable bytes first, then the remapped ones. */
    private static final char[] VOCABULARY_ORDER = new char[256];

    static {
        int next = 0;
        for (int b = 0; b < 256; b++) {
            if (standsForItself(b)) {
                SYMBOL_OF_BYTE[b] = (char) b;
                VOCABULARY_ORDER[next++] = (char) b;
            }
        }
        int remapped = 0;
        for (int b = 0; b < 256; b++) {
            if (!standsForItself(b)) {
                SYMBOL_OF_BYTE[b] = (char) (256 + remapped++);
                VOCABULARY_ORDER[next++] = SYMBOL_OF_BYTE[b];
            }
        }
    }

    private ByteLevelAlphabet() {}

    private static boolean standsForItself(int b) {
        return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    }

    /** The character that stands for a byte. */
    static char symbolOf(byte b) {
        return SYMBOL_OF_BYTE[b & 0xFF];
    }

    /** The 256 byte characters in the order in which upstream's vocabulary lists them (ids 0..255). */
    static char[] vocabularyOrder() {
        return VOCABULARY_ORDER.clone();
    }
}
