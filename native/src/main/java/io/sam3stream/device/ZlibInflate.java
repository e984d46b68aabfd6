package io.sam3stream.device;

/**
 * Whole-stream zlib inflation through libdeflate, where the system has it ({@code libdeflate.so.0}, loaded by the
 * native library at run time). libdeflate inflates about twice as fast as the zlib that {@link java.util.zip.Inflater}
 * wraps, and inflating is most of a PNG's decode; a caller keeps its own streaming path for systems without it and
 * for every stream this refuses, so that its errors stay its own.
 */
public final class ZlibInflate {

    private ZlibInflate() {}

    /** The library check, done once. */
    private static final class Availability {
        static final boolean AVAILABLE = NativeLibrary.answersYes(ZlibInflate::libraryLoads);
    }

    /** True when the native library loads and finds libdeflate on this system. */
    public static boolean available() {
        return Availability.AVAILABLE;
    }

    /**
     * Inflates the zlib stream {@code in[offset, offset + length)} so that it fills {@code out} exactly.
     *
     * @return true when it did; false when it is not {@link #available()}, or the stream is corrupt (checksum
     *     included), or inflates to fewer or more bytes than {@code out} holds, in which case {@code out}'s content
     *     is undefined
     * @throws DeviceException if the range lies outside {@code in}
     */
    public static boolean inflateExactly(byte[] in, int offset, int length, byte[] out) {
        return available() && inflate(in, offset, length, out);
    }

    private static native boolean libraryLoads();

    private static native boolean inflate(byte[] in, int offset, int length, byte[] out);
}
