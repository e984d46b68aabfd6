package io.sam3stream.testing;

import io.sam3stream.parity.TensorStatistics;
import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import io.sam3stream.weights.SafetensorsWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds small reference files in the sampled full-size layout. */
public final class SampledGoldenFile {

    private final Map<String, RawTensor> tensors = new LinkedHashMap<>();

    /**
     * A large stage: its shape, the values of {@code all} at {@code indices}, and the given statistics.
     */
    public SampledGoldenFile sampled(String stage, long[] shape, float[] all, long[] indices, TensorStatistics stats) {
        float[] values = new float[indices.length];
        for (int i = 0; i < indices.length; i++) {
            values[i] = all[(int) indices[i]];
        }
        tensors.put(stage + ":shape", i64(shape, shape.length));
        tensors.put(stage + ":idx", i64(indices, indices.length));
        tensors.put(stage + ":val", RawTensor.ofFloats(values, values.length));
        tensors.put(stage + ":stats", f64(new double[] {stats.mean(), stats.std(), stats.min(), stats.max()}, 4));
        return this;
    }

    /** Any entry, as given. */
    public SampledGoldenFile put(String name, RawTensor tensor) {
        tensors.put(name, tensor);
        return this;
    }

    /** Writes the file and opens it. */
    public SafetensorsFile write(Path file) {
        writeOnly(file);
        return SafetensorsFile.open(file);
    }

    /** Writes the file. */
    public void writeOnly(Path file) {
        SafetensorsWriter.write(file, tensors, Map.of());
    }

    public static RawTensor i64(long[] values, long... shape) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(values);
        return new RawTensor(DType.I64, shape, b);
    }

    public static RawTensor f64(double[] values, long... shape) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(values);
        return new RawTensor(DType.F64, shape, b);
    }

    public static RawTensor bool(boolean[] values, long... shape) {
        ByteBuffer b = ByteBuffer.allocate(values.length);
        for (int i = 0; i < values.length; i++) {
            b.put(i, (byte) (values[i] ? 1 : 0));
        }
        return new RawTensor(DType.BOOL, shape, b);
    }
}
