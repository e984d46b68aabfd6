package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.FusedOps;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.Params;

/**
 * The ViT block's feed-forward network (timm {@code Mlp}): {@code fc2(GELU(fc1(x)))} with the exact, erf-based
 * GELU of {@code nn.GELU()}.
 */
public record VitMlp(Linear fc1, Linear fc2) {

    /** Loads {@code mlp.fc1} and {@code mlp.fc2} of a block, their matrices blocked where the precision says so. */
    public static VitMlp load(Params block) {
        return new VitMlp(Linear.load(block, "mlp.fc1").withBlockedMatrix(),
                Linear.load(block, "mlp.fc2").withBlockedMatrix());
    }

    /**
     * (..., C) → (..., C); the hidden activation is freed as soon as it is consumed. The result must only be read
     * (see {@link Linear#forwardReadOnly}).
     */
    public NDArray forward(NDArray x) {
        if (fc1.precision().bf16Linear()) {
            // one call, the 4736-wide hidden activation kept in bfloat16 between the two products
            return FusedOps.mlpBf16(x, fc1.weight(), fc1.bias(), fc2.weight(), fc2.bias());
        }
        NDArray activated = fc1.forwardGelu(x);
        NDArray out = fc2.forwardReadOnly(activated);
        activated.close();
        return out;
    }
}
