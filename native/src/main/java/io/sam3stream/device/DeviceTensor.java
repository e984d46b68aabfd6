package io.sam3stream.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * A dense C-order tensor in a direct little-endian buffer, as the native islands read and write it: the native
 * side works on the buffer's memory itself, so nothing is copied on the way in or out.
 */
public final class DeviceTensor {

    private final ElementType type;
    private final long[] shape;
    private final ByteBuffer data;

    private DeviceTensor(ElementType type, long[] shape, ByteBuffer data) {
        this.type = type;
        this.shape = shape;
        this.data = data;
    }

    /**
     * Wraps the buffer's remaining bytes, which must hold exactly the tensor.
     *
     * @throws DeviceException ({@link DeviceStatus#INVALID_ARGUMENT}) if the buffer is not direct, not
     *     little-endian, or not of the shape's size
     */
    public static DeviceTensor of(ElementType type, long[] shape, ByteBuffer data) {
        long[] dims = shape.clone();
        long bytes = elementCount(dims) * type.byteSize();
        if (!data.isDirect()) {
            throw invalid("tensor data must be a direct ByteBuffer (the native side reads its memory in place)");
        }
        if (data.order() != ByteOrder.LITTLE_ENDIAN) {
            throw invalid("tensor data must be little-endian (ByteBuffer.order(ByteOrder.LITTLE_ENDIAN)), the layout"
                    + " the native side reads");
        }
        if (data.remaining() != bytes) {
            throw invalid("a " + type + " tensor of shape " + Arrays.toString(dims) + " needs " + bytes
                    + " bytes but the buffer has " + data.remaining() + " remaining");
        }
        return new DeviceTensor(type, dims, data.slice().order(ByteOrder.LITTLE_ENDIAN));
    }

    /** A zero-filled tensor in a new direct buffer. */
    public static DeviceTensor allocate(ElementType type, long... shape) {
        long bytes = elementCount(shape) * type.byteSize();
        if (bytes > Integer.MAX_VALUE) {
            throw invalid("a tensor of shape " + Arrays.toString(shape) + " does not fit one buffer");
        }
        return of(type, shape, ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.LITTLE_ENDIAN));
    }

    /** A float32 tensor holding a copy of the values. */
    public static DeviceTensor ofFloats(float[] values, long... shape) {
        if (values.length != elementCount(shape)) {
            throw invalid(values.length + " values do not fill shape " + Arrays.toString(shape));
        }
        DeviceTensor t = allocate(ElementType.F32, shape);
        t.data.asFloatBuffer().put(values);
        return t;
    }

    /** A U8 mask tensor: 1 where the flag is true. */
    public static DeviceTensor ofBooleans(boolean[] flags, long... shape) {
        if (flags.length != elementCount(shape)) {
            throw invalid(flags.length + " flags do not fill shape " + Arrays.toString(shape));
        }
        DeviceTensor t = allocate(ElementType.U8, shape);
        for (int i = 0; i < flags.length; i++) {
            t.data.put(i, (byte) (flags[i] ? 1 : 0));
        }
        return t;
    }

    public ElementType type() {
        return type;
    }

    public long[] shape() {
        return shape.clone();
    }

    /** The tensor's bytes: a view positioned at 0, little-endian. */
    public ByteBuffer data() {
        return data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The values of an F32 tensor, viewed without copying. */
    public FloatBuffer asFloatBuffer() {
        if (type != ElementType.F32) {
            throw invalid("not a float32 tensor: " + type);
        }
        return data().asFloatBuffer();
    }

    /** A copy of the values of an F32 tensor. */
    public float[] toFloats() {
        FloatBuffer f = asFloatBuffer();
        float[] out = new float[f.remaining()];
        f.get(out);
        return out;
    }

    /** The buffer handed to native code: its capacity is exactly the tensor's size. */
    ByteBuffer buffer() {
        return data;
    }

    static long elementCount(long[] shape) {
        long n = 1;
        for (long d : shape) {
            if (d < 0) {
                throw invalid("negative dimension in shape " + Arrays.toString(shape));
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    private static DeviceException invalid(String message) {
        return new DeviceException(DeviceStatus.INVALID_ARGUMENT, message);
    }

    @Override
    public String toString() {
        return "DeviceTensor[" + type + " " + Arrays.toString(shape) + "]";
    }
}
