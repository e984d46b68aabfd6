package io.sam3stream.parity;

import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.nio.DoubleBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reference outputs of a full-size golden folder ({@code outputs-sampled.safetensors}): each large stage
 * {@code NAME} as four entries, {@code NAME:shape} (I64), {@code NAME:idx} (I64 flat C-order indices),
 * {@code NAME:val} (F32 values at those indices) and {@code NAME:stats} (F64 mean, population std, min, max of the
 * whole tensor); every small stage stored in full under its own name.
 */
public final class SampledReference {

    private static final String SHAPE = ":shape";
    private static final String INDICES = ":idx";
    private static final String VALUES = ":val";
    private static final String STATISTICS = ":stats";
    private static final List<String> PARTS = List.of(SHAPE, INDICES, VALUES, STATISTICS);

    private final SafetensorsFile outputs;
    private final Map<String, SampledStage> sampled;
    private final Set<String> whole;

    private SampledReference(SafetensorsFile outputs, Map<String, SampledStage> sampled, Set<String> whole) {
        this.outputs = outputs;
        this.sampled = Collections.unmodifiableMap(sampled);
        this.whole = Collections.unmodifiableSet(whole);
    }

    /**
     * Reads the layout of an outputs file.
     *
     * @throws IllegalArgumentException if a sampled stage lacks one of its four entries, its indices and values
     *                                  differ in number, or an entry has an unknown suffix
     */
    public static SampledReference of(SafetensorsFile outputs) {
        Set<String> sampledNames = new LinkedHashSet<>();
        Set<String> whole = new LinkedHashSet<>();
        for (String name : outputs.names()) {
            int colon = name.lastIndexOf(':');
            if (colon < 0) {
                whole.add(name);
            } else if (PARTS.contains(name.substring(colon))) {
                sampledNames.add(name.substring(0, colon));
            } else {
                throw new IllegalArgumentException("unknown sampled entry " + name);
            }
        }
        Map<String, SampledStage> sampled = new LinkedHashMap<>();
        sampledNames.forEach(stage -> sampled.put(stage, read(outputs, stage)));
        return new SampledReference(outputs, sampled, whole);
    }

    private static SampledStage read(SafetensorsFile outputs, String stage) {
        for (String part : PARTS) {
            if (!outputs.names().contains(stage + part)) {
                throw new IllegalArgumentException("sampled stage " + stage + " has no " + part + " entry");
            }
        }
        RawTensor statistics = outputs.get(stage + STATISTICS);
        if (statistics.dtype() != DType.F64) {
            throw new IllegalArgumentException(stage + STATISTICS + " is " + statistics.dtype() + ", not F64");
        }
        DoubleBuffer buffer = statistics.data().asDoubleBuffer();
        double[] stats = new double[buffer.remaining()];
        buffer.get(stats);
        return new SampledStage(outputs.get(stage + SHAPE).toLongs(), outputs.get(stage + INDICES).toLongs(),
                outputs.get(stage + VALUES).toFloats(), TensorStatistics.fromArray(stats));
    }

    /** The large stages by name, in file order. */
    public Map<String, SampledStage> sampledStages() {
        return sampled;
    }

    /** The names of the stages stored in full, in file order. */
    public Set<String> wholeStages() {
        return whole;
    }

    /** A stage stored in full. */
    public RawTensor whole(String stage) {
        if (!whole.contains(stage)) {
            throw new IllegalArgumentException("no whole stage " + stage);
        }
        return outputs.get(stage);
    }

    /** The flat indices each large stage is sampled at, for a {@link StageRecorder}. */
    public Map<String, long[]> sampleIndices() {
        Map<String, long[]> indices = new LinkedHashMap<>();
        sampled.forEach((stage, reference) -> indices.put(stage, reference.indices()));
        return indices;
    }
}
