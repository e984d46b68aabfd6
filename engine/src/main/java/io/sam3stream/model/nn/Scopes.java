package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDScope;
import java.util.function.Supplier;

/**
 * Frees a computation's intermediates: the body runs in its own {@link NDScope}, every array it creates is closed
 * when it returns, and the arrays it returns move to the enclosing scope, or to the caller when there is none. A
 * module's forward wrapped this way frees its temporaries on return whether or not its caller uses scopes.
 *
 * <p>The body must return arrays it created, never one it was given: a returned input would be handed to the
 * enclosing scope and closed with it.
 */
public final class Scopes {

    private Scopes() {}

    /** Runs {@code body} and keeps only the array it returns. */
    public static NDArray keep(Supplier<NDArray> body) {
        NDArray result = detach(body);
        NDScope.register(result);
        return result;
    }

    /**
     * Runs {@code body} and keeps only the array it returns, in no scope at all: the caller owns it and must close
     * it (or attach it to a manager that outlives the enclosing scopes).
     */
    public static NDArray detach(Supplier<NDArray> body) {
        NDArray result;
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            result = body.get();
            NDScope.unregister(result);
        }
        return result;
    }

    /** Runs {@code body} and keeps only the arrays of the list it returns. */
    public static NDList keepAll(Supplier<NDList> body) {
        NDList result;
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            result = body.get();
            NDScope.unregister(result);
        }
        for (NDArray array : result) {
            NDScope.register(array);
        }
        return result;
    }
}
