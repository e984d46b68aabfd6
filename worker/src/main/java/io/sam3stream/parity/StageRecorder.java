package io.sam3stream.parity;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import io.sam3stream.model.nn.StageSink;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A sink that copies the stages a comparison needs (modules free their arrays once {@code record} returns) and
 * ignores the rest, so a full-size run keeps only what it will compare.
 */
public final class StageRecorder implements StageSink {

    private final Set<String> wanted;
    private final Map<String, RecordedStage> stages = new LinkedHashMap<>();

    /** @param wanted names of the stages to keep (the reference's names) */
    public StageRecorder(Set<String> wanted) {
        this.wanted = Set.copyOf(wanted);
    }

    @Override
    public void record(String name, NDArray value) {
        if (!wanted.contains(name)) {
            return;
        }
        NDArray floats = value.getDataType() == DataType.FLOAT32 ? value : value.toType(DataType.FLOAT32, false);
        stages.put(name, new RecordedStage(floats.getShape().getShape(), floats.toFloatArray()));
        if (floats != value) {
            floats.close();
        }
    }

    /** Adds a stage computed outside the model (mask probabilities at the original size). */
    public void put(String name, long[] shape, float[] values) {
        if (wanted.contains(name)) {
            stages.put(name, new RecordedStage(shape, values));
        }
    }

    /** Whether a stage of that name is wanted. */
    public boolean wants(String name) {
        return wanted.contains(name);
    }

    /** Everything recorded, by stage name, in recording order. */
    public Map<String, RecordedStage> stages() {
        return stages;
    }
}
