package io.sam3stream.weights;

/** Element types a checkpoint may hold, with their safetensors names and byte widths. */
public enum DType {
    F32(4),
    F16(2),
    BF16(2),
    F64(8),
    I64(8),
    I32(4),
    I16(2),
    I8(1),
    U8(1),
    BOOL(1);

    private final int byteSize;

    DType(int byteSize) {
        this.byteSize = byteSize;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** True for the floating-point types a model parameter can be stored in. */
    public boolean isFloating() {
        return this == F32 || this == F16 || this == BF16 || this == F64;
    }

    /** Parses a safetensors dtype name ("F32", "BF16", ...). */
    public static DType fromSafetensors(String name) {
        try {
            return DType.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new CheckpointException("unsupported safetensors dtype " + name);
        }
    }
}
