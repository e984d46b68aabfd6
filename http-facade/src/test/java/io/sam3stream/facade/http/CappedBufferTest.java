package io.sam3stream.facade.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CappedBufferTest {

    @Test
    void anUnknownSizeGrowsByDoublingButTheLastStepStopsAtTheCap() {
        int cap = 3_000_000;
        CappedBuffer buffer = new CappedBuffer(-1, cap);
        byte[] chunk = new byte[65_536];
        Arrays.fill(chunk, (byte) 7);
        int written = 0;
        while (written + chunk.length <= cap) {
            buffer.write(chunk, 0, chunk.length);
            written += chunk.length;
        }
        buffer.write(chunk, 0, cap - written);

        assertEquals(cap, buffer.capacity(), "2 MiB doubles to the cap, not to 4 MiB");
        byte[] all = buffer.toByteArray();
        assertEquals(cap, all.length);
        assertEquals(7, all[cap - 1]);
    }

    @Test
    void aDeclaredSizeWithinTheCapIsAllocatedOnceAndReturnedWithoutACopy() {
        CappedBuffer buffer = new CappedBuffer(5, 100);
        buffer.write(new byte[] {1, 2, 3, 4, 5}, 0, 5);
        assertEquals(5, buffer.capacity());
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, buffer.toByteArray());
    }

    @Test
    void aDeclaredSizeOverTheCapAllocatesNoMoreThanAnUnknownOne() {
        assertEquals(8192, new CappedBuffer(100_000_000L, 3_000_000).capacity());
        assertEquals(100, new CappedBuffer(-1, 100).capacity());
    }

    @Test
    void writingPastTheCapIsABugNotAGrowth() {
        CappedBuffer buffer = new CappedBuffer(-1, 4);
        buffer.write(new byte[4], 0, 4);
        assertThrows(IllegalStateException.class, () -> buffer.write(9));
    }
}
