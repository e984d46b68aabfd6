package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Fnv1a64Test {

    @Test
    void emptyStringHashesToTheOffsetBasis() {
        assertEquals(0xCBF29CE484222325L, Fnv1a64.hash(""));
    }

    @Test
    void hashesASingleByteAsTheReferenceDoes() {
        assertEquals(Long.parseUnsignedLong("af63dc4c8601ec8c", 16), Fnv1a64.hash("a"));
    }

    @Test
    void hashesNonAsciiTextByItsUnsignedUtf8Bytes() {
        // "é" is C3 A9 in UTF-8: both bytes are negative as Java bytes and must enter the hash as 0..255.
        assertEquals(Long.parseUnsignedLong("0ac21707b7181e01", 16), Fnv1a64.hash("é"));
    }

    @ParameterizedTest
    @CsvSource({
        "backbone.vision_backbone.trunk.blocks.3.attn.qkv.weight, ab5ec5b95a32cd08",
        "backbone.vision_backbone.trunk.blocks.0.norm1.weight, c99cb2205bc5d043",
        "transformer.decoder.layers.3.cross_attn.out_proj.weight, 3dfe5a781e822b29",
        "vit.block0, abd29f78a3dd5d19",
    })
    void seedsOfTheGoldenSetExamples(String name, String seedHex) {
        assertEquals(Long.parseUnsignedLong(seedHex, 16), Fnv1a64.hash(name));
    }
}
