package io.sam3stream.weights;

/**
 * The typed storage classes ({@code torch.FloatStorage}, ...) that a {@code torch.save} pickle names in each
 * storage's persistent id, with the element type they hold. Complex storages are recognised so that a checkpoint
 * holding them still opens; their tensors cannot be read (DJL has no complex type) and are skipped by name
 * instead: SAM3's only complex tensors are the {@code freqs_cis} RoPE tables, which are recomputed.
 */
enum TorchStorageType {
    FLOAT("FloatStorage", DType.F32),
    DOUBLE("DoubleStorage", DType.F64),
    HALF("HalfStorage", DType.F16),
    BFLOAT16("BFloat16Storage", DType.BF16),
    LONG("LongStorage", DType.I64),
    INT("IntStorage", DType.I32),
    BYTE("ByteStorage", DType.U8),
    BOOL("BoolStorage", DType.BOOL),
    COMPLEX_FLOAT("ComplexFloatStorage", null);

    private final String pythonName;
    private final DType dtype;

    TorchStorageType(String pythonName, DType dtype) {
        this.pythonName = pythonName;
        this.dtype = dtype;
    }

    /** The dotted global name under which pickles refer to it, e.g. {@code torch.FloatStorage}. */
    String globalName() {
        return "torch." + pythonName;
    }

    /**
     * The element type of its tensors.
     *
     * @throws CheckpointException for a complex storage
     */
    DType dtype() {
        if (dtype == null) {
            throw new CheckpointException(pythonName + " tensors are not supported (no complex dtype)");
        }
        return dtype;
    }
}
