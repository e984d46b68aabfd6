package io.sam3stream.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.util.HashMap;
import java.util.Map;

/**
 * The single-byte encodings that ftfy 6.1.1 tries when undoing mojibake ({@code chardata.CHARMAP_ENCODINGS}), in
 * its order. The "sloppy" Windows code pages are ftfy's variants: bytes the code page leaves undefined decode to the
 * Latin-1 character of the same number, and byte 0x1A stands for U+FFFD (so text whose replacement characters came
 * from lost bytes can still be re-encoded).
 */
enum SingleByteCharmap {
    LATIN_1("ISO-8859-1", false),
    SLOPPY_WINDOWS_1252("windows-1252", true),
    SLOPPY_WINDOWS_1251("windows-1251", true),
    SLOPPY_WINDOWS_1250("windows-1250", true),
    SLOPPY_WINDOWS_1253("windows-1253", true),
    SLOPPY_WINDOWS_1254("windows-1254", true),
    ISO_8859_2("ISO-8859-2", false),
    MAC_ROMAN("x-MacRoman", false),
    CP437("IBM437", false);

    private static final byte SUBSTITUTE = 0x1A;

    private final boolean sloppy;
    private final char[] decodeTable = new char[256];
    private final Map<Character, Byte> encodeTable = new HashMap<>();

    SingleByteCharmap(String javaCharset, boolean sloppy) {
        this.sloppy = sloppy;
        CharsetDecoder decoder = Charset.forName(javaCharset).newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        for (int b = 0; b < 256; b++) {
            char c;
            try {
                CharBuffer decoded = decoder.reset().decode(ByteBuffer.wrap(new byte[] {(byte) b}));
                c = decoded.get(0);
            } catch (CharacterCodingException undefined) {
                if (!sloppy) {
                    throw new IllegalStateException(javaCharset + " leaves byte " + b + " undefined");
                }
                c = (char) b;
            }
            decodeTable[b] = c;
        }
        if (sloppy) {
            decodeTable[SUBSTITUTE] = '\uFFFD';
        }
        for (int b = 0; b < 256; b++) {
            encodeTable.put(decodeTable[b], (byte) b);
        }
    }

    /** True for ftfy's sloppy variants, whose byte 0x1A means a lost character. */
    boolean isSloppy() {
        return sloppy;
    }

    /** The character of one byte. */
    char decode(byte b) {
        return decodeTable[b & 0xFF];
    }

    /** True if every character of the text has a byte in this encoding ({@code chardata.possible_encoding}). */
    boolean canEncode(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!encodeTable.containsKey(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The text's bytes; every character must be encodable. */
    byte[] encode(String text) {
        byte[] bytes = new byte[text.length()];
        for (int i = 0; i < bytes.length; i++) {
            Byte b = encodeTable.get(text.charAt(i));
            if (b == null) {
                throw new IllegalArgumentException(name() + " cannot encode U+" + Integer.toHexString(text.charAt(i)));
            }
            bytes[i] = b;
        }
        return bytes;
    }
}
