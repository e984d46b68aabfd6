package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;

/** One step of a neck branch: a (B, C, H, W) map in, a new map out; the input is left untouched. */
@FunctionalInterface
public interface FeatureMapLayer {

    NDArray forward(NDArray map);
}
