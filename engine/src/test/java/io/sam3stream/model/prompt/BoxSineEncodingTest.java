package io.sam3stream.model.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class BoxSineEncodingTest {

    @Test
    void laysOutYThenXSineCosinePairsThenHeightThenWidth() {
        // 4 channels per coordinate: periods 1, 1, 100, 100 (10000^(2⌊k/2⌋/4)); angle = 2π·p / period
        ExemplarBox box = new ExemplarBox(0.25f, 0.5f, 0.3f, 0.4f, true);
        double pi = Math.PI;
        float[] expected = {
            (float) Math.sin(pi), (float) Math.cos(pi), (float) Math.sin(pi / 100), (float) Math.cos(pi / 100),
            (float) Math.sin(pi / 2), (float) Math.cos(pi / 2), (float) Math.sin(pi / 200),
            (float) Math.cos(pi / 200),
            0.4f, 0.3f,
        };
        assertArrayEquals(expected, BoxSineEncoding.encode(box, 4), 1e-6f);
    }
}
