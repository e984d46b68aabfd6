package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.IValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of one call of a {@link ScriptModule} method, in order. The handles it creates for tensors and
 * numbers are released when the call is closed; a module's {@link GraphWeights} are passed by their shared handle
 * and stay open.
 */
final class ScriptCall implements AutoCloseable {

    private final List<IValue> values = new ArrayList<>();
    private final List<IValue> owned = new ArrayList<>();

    ScriptCall tensor(NDArray array) {
        return own(IValue.from((PtNDArray) array));
    }

    ScriptCall tensors(List<NDArray> arrays) {
        return own(IValue.listFrom(arrays.toArray(PtNDArray[]::new)));
    }

    ScriptCall integer(long value) {
        return own(IValue.from(value));
    }

    ScriptCall number(double value) {
        return own(IValue.from(value));
    }

    ScriptCall text(String value) {
        return own(IValue.from(value));
    }

    ScriptCall flag(boolean value) {
        return own(IValue.from(value));
    }

    ScriptCall integers(long... values) {
        return own(IValue.listFrom(values));
    }

    ScriptCall flags(boolean... values) {
        return own(IValue.listFrom(values));
    }

    ScriptCall weights(GraphWeights weights) {
        values.add(weights.dictionary());
        return this;
    }

    IValue[] values() {
        return values.toArray(IValue[]::new);
    }

    private ScriptCall own(IValue value) {
        values.add(value);
        owned.add(value);
        return this;
    }

    @Override
    public void close() {
        for (IValue value : owned) {
            value.close();
        }
    }
}
