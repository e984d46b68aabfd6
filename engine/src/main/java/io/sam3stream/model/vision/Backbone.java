package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.StageSink;

/**
 * The ViT trunk as a device island: preprocessed image in, 1× trunk features out. The DJL implementation is
 * {@link VisionTrunk}; the JNI bridge provides one that runs on the host C++ library or a p150a.
 */
public interface Backbone {

    /**
     * @param image (1, 3, R, R) preprocessed pixels
     * @param sink  receives the trunk's stages (at least {@code vit.out})
     * @return (1, C, G, G) trunk features, allocated in the image's manager
     */
    NDArray forward(NDArray image, StageSink sink);
}
