package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import java.util.List;

/** One scale of the neck ({@code nn.Sequential} {@code convs.{j}} upstream): its layers applied in order. */
record NeckBranch(List<FeatureMapLayer> layers) {

    /** Runs every layer, freeing each intermediate map as soon as the next one exists; the input is kept. */
    NDArray forward(NDArray trunkOut) {
        NDArray x = trunkOut;
        for (FeatureMapLayer layer : layers) {
            NDArray next = layer.forward(x);
            if (x != trunkOut) {
                x.close();
            }
            x = next;
        }
        return x;
    }
}
