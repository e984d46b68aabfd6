package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.neck.ImageFeatures;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.neck.VitDetNeck;
import io.sam3stream.model.nn.ModuleClock;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;

/**
 * The image side of SAM3 (upstream {@code SAM3VLBackbone.forward_image}): the ViT trunk followed by the neck.
 * It runs once per image; its {@link ImageFeatures} serve every prompt on that image.
 */
public final class ImageEncoder {

    private final Backbone trunk;
    private final VitDetNeck neck;

    /** Chains a loaded trunk and neck. */
    public ImageEncoder(Backbone trunk, VitDetNeck neck) {
        this.trunk = trunk;
        this.neck = neck;
    }

    /**
     * Loads the trunk and neck from the parameters under {@code backbone.vision_backbone}.
     *
     * @param root   parameters under canonical (upstream) names
     * @param levels which neck levels to build
     */
    public static ImageEncoder load(Params root, Sam3Config config, NeckLevels levels) {
        return load(root, config, levels,
                VisionTrunk.load(root.sub("backbone.vision_backbone.trunk"), config.vit()));
    }

    /** Loads the neck from the parameters and pairs it with a trunk that lives elsewhere (a device island). */
    public static ImageEncoder load(Params root, Sam3Config config, NeckLevels levels, Backbone trunk) {
        return new ImageEncoder(trunk, VitDetNeck.load(root.sub("backbone.vision_backbone"), config.dModel(), levels));
    }

    /**
     * @param image (B, 3, R, R) preprocessed pixels
     * @param sink  receives every {@code vit.*} and {@code neck.*} stage
     * @return the features, allocated in the image's manager; the caller closes them. The trunk output is freed
     *         once the neck has read it (it is only a stage, {@code vit.out}, after that).
     */
    public ImageFeatures encode(NDArray image, StageSink sink) {
        ImageFeatures features;
        try (NDArray trunkOut = trunk.forward(image, sink)) {
            ModuleClock.lap("vit_trunk");
            features = neck.forward(trunkOut, sink);
        }
        ModuleClock.lap("neck");
        return features;
    }
}
