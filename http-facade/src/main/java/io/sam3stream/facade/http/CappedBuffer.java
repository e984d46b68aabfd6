package io.sam3stream.facade.http;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * An in-memory byte sink that never grows past a capacity: a body without a {@code Content-Length} is collected by
 * doubling, but the last step goes to the cap rather than past it, so a body at the limit occupies at most twice the
 * limit while it is copied (a plain {@code ByteArrayOutputStream} doubling from 2 MiB to 4 MiB holds 6 MiB for a
 * 2.9 MB limit, and each in-flight place may be reading one).
 */
final class CappedBuffer extends OutputStream {

    private static final int FIRST_CAPACITY = 8192;

    private final int cap;
    private byte[] bytes;
    private int count;

    /**
     * @param expected the declared size, or a non-positive number when unknown; a size over the cap (a body that
     *                 will be refused) allocates no more than an unknown one
     * @param cap      most bytes ever written (the caller refuses a body before it passes the cap)
     */
    CappedBuffer(long expected, int cap) {
        this.cap = cap;
        this.bytes = new byte[(int) (expected > 0 && expected <= cap ? expected : Math.min(cap, FIRST_CAPACITY))];
    }

    @Override
    public void write(int b) {
        ensure(count + 1);
        bytes[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(count + len);
        System.arraycopy(b, off, bytes, count, len);
        count += len;
    }

    /** The size of the array now holding the bytes. */
    int capacity() {
        return bytes.length;
    }

    /** The bytes written, in an array of their exact length. */
    byte[] toByteArray() {
        return count == bytes.length ? bytes : Arrays.copyOf(bytes, count);
    }

    private void ensure(int needed) {
        if (needed > cap) {
            throw new IllegalStateException("more than " + cap + " bytes written to a buffer capped there");
        }
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(cap, Math.max(needed, 2L * bytes.length)));
        }
    }
}
