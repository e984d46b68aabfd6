package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The parameters of one module subtree, read from a {@link WeightSource} by their path relative to a prefix
 * ({@code params.sub("blocks.3").get("attn.qkv.weight")}). Every tensor becomes a float32 {@link NDArray} owned by
 * the manager given at construction, so the model's weights live exactly as long as that manager.
 */
public final class Params {

    private final WeightSource source;
    private final NDManager manager;
    private final String prefix;
    private final Precision precision;

    private Params(WeightSource source, NDManager manager, String prefix, Precision precision) {
        this.source = source;
        this.manager = manager;
        this.prefix = prefix;
        this.precision = precision;
    }

    /** The root of a checkpoint's canonical names, every matrix kept float32. */
    public static Params root(WeightSource source, NDManager manager) {
        return root(source, manager, Precision.FP32);
    }

    /** The root of a checkpoint's canonical names; {@link Linear} layers compute in {@code precision}. */
    public static Params root(WeightSource source, NDManager manager, Precision precision) {
        return new Params(source, manager, "", precision);
    }

    /** The subtree under {@code name} (dot-separated). */
    public Params sub(String name) {
        return new Params(source, manager, qualify(name) + ".", precision);
    }

    /**
     * This subtree with its {@link Linear} layers in {@code other}: how a module whose outputs bfloat16 would move
     * past its bounds is kept in float32 inside a bfloat16 model (mixed precision).
     */
    public Params withPrecision(Precision other) {
        return new Params(source, manager, prefix, other);
    }

    /** The precision {@link Linear} layers loaded from this tree hold their matrices and compute in. */
    public Precision precision() {
        return precision;
    }

    /**
     * The parameter {@code name} under this subtree, as float32 with its stored shape, in memory owned by
     * libtorch. An array created from a Java buffer only borrows that buffer: a view sliced from it (a q/k/v block
     * of a packed projection) would read freed memory once the borrowing array is closed and the buffer
     * collected. Cloning into libtorch's allocator makes every parameter and every view of it safe.
     */
    public NDArray get(String name) {
        RawTensor t = source.get(qualify(name));
        Shape shape = new Shape(t.shape());
        ByteBuffer bytes = t.data();
        NDArray borrowed = t.dtype() == DType.F32 && bytes.isDirect() && bytes.order() == ByteOrder.nativeOrder()
                ? manager.create(bytes, shape, DataType.FLOAT32)
                : manager.create(t.toFloats(), shape);
        NDArray owned = borrowed.duplicate();
        borrowed.close();
        return owned;
    }

    /** True if the subtree holds a parameter called {@code name}. */
    public boolean has(String name) {
        return source.contains(qualify(name));
    }

    /** The full canonical name of {@code name} under this subtree. */
    public String qualify(String name) {
        return prefix + name;
    }

    /** The manager that owns every array this object creates. */
    public NDManager manager() {
        return manager;
    }
}
