package io.sam3stream.parity;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import io.sam3stream.model.nn.StageSink;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A sink that copies the stages a comparison needs (modules free their arrays once {@code record} returns) and
 * ignores the rest. Stages compared in full are kept whole; large stages of the sampled layout keep only their
 * statistics and the values at the reference's indices, so a full-size run holds a few kilobytes per stage rather
 * than its tens of megabytes.
 */
public final class StageRecorder implements StageSink {

    private final Set<String> whole;
    private final Map<String, long[]> sampleIndices;
    private final Map<String, RecordedStage> stages = new LinkedHashMap<>();
    private final Map<String, SampledStage> sampled = new LinkedHashMap<>();

    /** @param wanted names of the stages to keep whole (the reference's names) */
    public StageRecorder(Set<String> wanted) {
        this(wanted, Map.of());
    }

    /**
     * @param whole         names of the stages to keep whole
     * @param sampleIndices names of the stages to sample, each with the flat indices to keep
     */
    public StageRecorder(Set<String> whole, Map<String, long[]> sampleIndices) {
        this.whole = Set.copyOf(whole);
        this.sampleIndices = Map.copyOf(sampleIndices);
    }

    @Override
    public void record(String name, NDArray value) {
        if (!wants(name)) {
            return;
        }
        NDArray floats = value.getDataType() == DataType.FLOAT32 ? value : value.toType(DataType.FLOAT32, false);
        try {
            put(name, floats.getShape().getShape(), floats.toFloatArray());
        } finally {
            if (floats != value) {
                floats.close();
            }
        }
    }

    /** Adds a stage computed outside the model (mask probabilities at the original size, their summaries). */
    public void put(String name, long[] shape, float[] values) {
        long[] indices = sampleIndices.get(name);
        if (indices != null) {
            sampled.put(name, SampledStage.sample(shape, values, indices));
        } else if (whole.contains(name)) {
            stages.put(name, new RecordedStage(shape, values));
        }
    }

    /** Whether a stage of that name is wanted, whole or sampled. */
    public boolean wants(String name) {
        return whole.contains(name) || sampleIndices.containsKey(name);
    }

    /** The stages kept whole, by name, in recording order. */
    public Map<String, RecordedStage> stages() {
        return stages;
    }

    /** The sampled stages, by name, in recording order. */
    public Map<String, SampledStage> sampledStages() {
        return sampled;
    }
}
