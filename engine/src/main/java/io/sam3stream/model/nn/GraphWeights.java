package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.IValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A module's parameters as the one {@code Dict[str, Tensor]} argument its compiled graph reads them from, keyed by
 * their checkpoint names relative to the module ({@code layers.0.norm2.weight}). Built once when the model loads;
 * the dictionary shares the module's arrays (no copy) and is released with the manager that owns them, so it lives
 * exactly as long as the weights.
 */
public final class GraphWeights {

    private final IValue dictionary;

    private GraphWeights(IValue dictionary) {
        this.dictionary = dictionary;
    }

    /** Collects named parameters; {@link #build} turns them into the graph's argument. */
    public static final class Builder {

        private final Map<String, PtNDArray> entries = new LinkedHashMap<>();

        /**
         * Adds {@code array} under {@code name}.
         *
         * @throws IllegalArgumentException if the name is taken (two modules mapped to one name)
         */
        public Builder put(String name, NDArray array) {
            if (entries.putIfAbsent(name, (PtNDArray) array) != null) {
                throw new IllegalArgumentException("graph parameter " + name + " added twice");
            }
            return this;
        }

        /**
         * The dictionary, released when {@code owner} (the manager of the parameters) is closed.
         */
        public GraphWeights build(NDManager owner) {
            IValue dictionary = IValue.stringMapFrom(entries);
            owner.attachInternal("graph-weights-" + System.identityHashCode(dictionary), dictionary);
            return new GraphWeights(dictionary);
        }
    }

    /** A new, empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The dictionary itself, owned by this object: a call passes it without closing it. */
    IValue dictionary() {
        return dictionary;
    }
}
