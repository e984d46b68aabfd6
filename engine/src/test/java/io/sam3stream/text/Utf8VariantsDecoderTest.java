package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class Utf8VariantsDecoderTest {

    @Test
    void decodesStandardUtf8() {
        assertEquals(Optional.of("a\u00E9\u20AC\uD83D\uDE00"),
                decode(0x61, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80));
    }

    @Test
    void decodesCesu8SurrogatePairs() {
        assertEquals(Optional.of("\uD83D\uDE00"), decode(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80));
    }

    @Test
    void decodesJavaModifiedUtf8Null() {
        assertEquals(Optional.of("a\u0000b"), decode(0x61, 0xC0, 0x80, 0x62));
    }

    @Test
    void refusesIllFormedSequences() {
        assertEquals(Optional.empty(), decode(0xED, 0xA0, 0x80), "lone surrogate");
        assertEquals(Optional.empty(), decode(0xED, 0xA0, 0xBD, 0x61), "truncated CESU-8 pair");
        assertEquals(Optional.empty(), decode(0xC1, 0x81), "overlong");
        assertEquals(Optional.empty(), decode(0xE0, 0x80, 0x80), "overlong");
        assertEquals(Optional.empty(), decode(0xF4, 0x90, 0x80, 0x80), "above U+10FFFF");
        assertEquals(Optional.empty(), decode(0xC3), "truncated");
        assertEquals(Optional.empty(), decode(0xC0, 0x81), "C0 other than C0 80");
        assertEquals(Optional.empty(), decode(0x80), "stray continuation");
    }

    private static Optional<String> decode(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return Utf8VariantsDecoder.decode(bytes);
    }
}
