package io.sam3stream.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** libdeflate's whole-stream inflate against streams the JDK's zlib wrote. */
class ZlibInflateTest {

    @BeforeEach
    void needsLibdeflate() {
        assumeTrue(ZlibInflate.available(), "SKIPPED: libdeflate (libdeflate.so.0) is not on this system");
    }

    private static byte[] deflate(byte[] raw, int level) {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(level);
        try (DeflaterOutputStream stream = new DeflaterOutputStream(compressed, deflater)) {
            stream.write(raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return compressed.toByteArray();
    }

    private static byte[] someBytes(int length) {
        byte[] raw = new byte[length];
        Random random = new Random(7);
        for (int i = 0; i < length; i++) {
            raw[i] = (byte) (i % 3 == 0 ? random.nextInt() : i / 11);
        }
        return raw;
    }

    @Test
    void inflatesEveryCompressionLevelToTheOriginalBytes() {
        byte[] raw = someBytes(300_001);
        for (int level : new int[] {0, 1, 6, 9}) {
            byte[] compressed = deflate(raw, level);
            byte[] padded = new byte[compressed.length + 10];
            System.arraycopy(compressed, 0, padded, 7, compressed.length);
            byte[] out = new byte[raw.length];
            assertTrue(ZlibInflate.inflateExactly(padded, 7, compressed.length, out), "level " + level);
            assertArrayEquals(raw, out, "level " + level);
        }
    }

    @Test
    void refusesAStreamThatDoesNotFillTheOutputExactly() {
        byte[] raw = someBytes(5000);
        byte[] compressed = deflate(raw, 6);
        assertFalse(ZlibInflate.inflateExactly(compressed, 0, compressed.length, new byte[raw.length + 1]));
        assertFalse(ZlibInflate.inflateExactly(compressed, 0, compressed.length, new byte[raw.length - 1]));
    }

    @Test
    void refusesCorruptOrCutStreams() {
        byte[] raw = someBytes(5000);
        byte[] compressed = deflate(raw, 6);
        byte[] badChecksum = compressed.clone();
        badChecksum[badChecksum.length - 1] ^= 0x10;
        assertFalse(ZlibInflate.inflateExactly(badChecksum, 0, badChecksum.length, new byte[raw.length]));
        assertFalse(ZlibInflate.inflateExactly(compressed, 0, compressed.length - 9, new byte[raw.length]));
        byte[] garbage = Arrays.copyOf(new byte[] {0x78, (byte) 0x9c, (byte) 0xff, (byte) 0xff, 1, 2}, 64);
        assertFalse(ZlibInflate.inflateExactly(garbage, 0, garbage.length, new byte[raw.length]));
    }

    @Test
    void refusesARangeOutsideItsArray() {
        byte[] in = new byte[10];
        assertThrows(DeviceException.class, () -> ZlibInflate.inflateExactly(in, 5, 6, new byte[4]));
        assertThrows(DeviceException.class, () -> ZlibInflate.inflateExactly(in, -1, 2, new byte[4]));
    }
}
