package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import io.sam3stream.model.nn.Scopes;

/** Box layout conversions (upstream {@code sam3/model/box_ops.py}). Boxes lie along the last axis. */
public final class Boxes {

    private Boxes() {}

    /**
     * (cx, cy, w, h) → (x0, y0, x1, y1) as {@code box_cxcywh_to_xyxy}: corners are centre ∓ half the size, in the
     * same units as the input.
     */
    public static NDArray cxcywhToXyxy(NDArray boxes) {
        return Scopes.keep(() -> {
            NDArray centre = boxes.get(new NDIndex("..., 0:2"));
            NDArray half = boxes.get(new NDIndex("..., 2:4")).mul(0.5f);
            return NDArrays.concat(new NDList(centre.sub(half), centre.add(half)), -1);
        });
    }
}
