package io.sam3stream.weights.procedural;

import java.nio.charset.StandardCharsets;

/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes. It turns a tensor or stage name into the seed of its
 * {@link SplitMix64} stream, so that every name has its own reproducible sequence.
 */
public final class Fnv1a64 {

    private static final long OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long PRIME = 0x100000001B3L;

    private Fnv1a64() {}

    /** FNV-1a-64 of the UTF-8 encoding of {@code text}, as an unsigned 64-bit value held in a long. */
    public static long hash(String text) {
        long h = OFFSET_BASIS;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * PRIME;
        }
        return h;
    }
}
