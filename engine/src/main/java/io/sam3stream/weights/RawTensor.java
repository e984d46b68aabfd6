package io.sam3stream.weights;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One tensor as stored in a checkpoint: dtype, shape and its little-endian, C-order bytes.
 * The buffer may be a slice of a memory-mapped file; it is never modified.
 */
public record RawTensor(DType dtype, long[] shape, ByteBuffer data) {

    public RawTensor {
        shape = shape.clone();
        data = data.slice().order(ByteOrder.LITTLE_ENDIAN);
        long expected = elementCount(shape) * dtype.byteSize();
        if (data.remaining() != expected) {
            throw new CheckpointException("tensor of shape " + Arrays.toString(shape) + " and dtype " + dtype
                    + " needs " + expected + " bytes but has " + data.remaining());
        }
    }

    /** Number of elements of a tensor of this shape (1 for a scalar). */
    public static long elementCount(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /** Number of elements. */
    public long size() {
        return elementCount(shape);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** The bytes, positioned at 0, little-endian; a fresh view each call. */
    @Override
    public ByteBuffer data() {
        return data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The values widened to float32 (F32, F16, BF16, F64 and the integer types). */
    public float[] toFloats() {
        int n = Math.toIntExact(size());
        float[] out = new float[n];
        ByteBuffer b = data();
        switch (dtype) {
            case F32 -> b.asFloatBuffer().get(out);
            case F16 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = halfToFloat(b.getShort(2 * i));
                }
            }
            case BF16 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Float.intBitsToFloat((b.getShort(2 * i) & 0xffff) << 16);
                }
            }
            case F64 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = (float) b.getDouble(8 * i);
                }
            }
            case I64 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.getLong(8 * i);
                }
            }
            case I32 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.getInt(4 * i);
                }
            }
            case I16 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.getShort(2 * i);
                }
            }
            case I8 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.get(i);
                }
            }
            case U8, BOOL -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.get(i) & 0xff;
                }
            }
            default -> throw new IllegalStateException(dtype.name());
        }
        return out;
    }

    /** The values of an integer tensor as longs. */
    public long[] toLongs() {
        int n = Math.toIntExact(size());
        long[] out = new long[n];
        ByteBuffer b = data();
        switch (dtype) {
            case I64 -> b.asLongBuffer().get(out);
            case I32 -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.getInt(4 * i);
                }
            }
            case U8, BOOL -> {
                for (int i = 0; i < n; i++) {
                    out[i] = b.get(i) & 0xff;
                }
            }
            default -> throw new CheckpointException("not an integer tensor: " + dtype);
        }
        return out;
    }

    /** The values of a BOOL or U8 tensor as booleans (non-zero is true). */
    public boolean[] toBooleans() {
        int n = Math.toIntExact(size());
        boolean[] out = new boolean[n];
        ByteBuffer b = data();
        for (int i = 0; i < n; i++) {
            out[i] = b.get(i) != 0;
        }
        return out;
    }

    /** IEEE 754 binary16 to float32 (exact: every half value is representable). */
    static float halfToFloat(short half) {
        int bits = half & 0xffff;
        int sign = (bits & 0x8000) << 16;
        int exponent = (bits >>> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        if (exponent == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mantissa << 13));
        }
        if (exponent == 0) {
            float magnitude = mantissa * 0x1p-24f;
            return sign == 0 ? magnitude : -magnitude;
        }
        return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }

    /** A float32 tensor holding the given values. */
    public static RawTensor ofFloats(float[] values, long... shape) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return new RawTensor(DType.F32, shape, b);
    }
}
