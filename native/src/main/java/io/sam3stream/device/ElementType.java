package io.sam3stream.device;

/** Element types of the tensors crossing into the native islands ({@code sam3n_dtype}). */
public enum ElementType {
    F32(0, 4),
    BF16(1, 2),
    F16(2, 2),
    /** Unsigned bytes; boolean masks (non-zero = true). */
    U8(3, 1);

    private final int code;
    private final int byteSize;

    ElementType(int code, int byteSize) {
        this.code = code;
        this.byteSize = byteSize;
    }

    /** The C API's dtype code. */
    int code() {
        return code;
    }

    public int byteSize() {
        return byteSize;
    }
}
