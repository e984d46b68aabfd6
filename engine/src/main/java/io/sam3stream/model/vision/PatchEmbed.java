package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.convolutional.Conv2d;
import io.sam3stream.model.nn.Params;

/**
 * Upstream {@code PatchEmbed}: a bias-free convolution whose kernel and stride are the patch size, turning the
 * image into one token per patch, returned channels-last.
 *
 * @param weight (embedDim, 3, patch, patch)
 */
public record PatchEmbed(NDArray weight) {

    /** Loads {@code patch_embed.proj.weight} from the trunk's parameters. */
    public static PatchEmbed load(Params trunk) {
        return new PatchEmbed(trunk.get("patch_embed.proj.weight"));
    }

    /**
     * @param image (B, 3, R, R)
     * @return (B, R/patch, R/patch, embedDim)
     */
    public NDArray forward(NDArray image) {
        long patch = weight.getShape().get(2);
        NDArray conv = Conv2d.conv2d(image, weight, null, new Shape(patch, patch), new Shape(0, 0), new Shape(1, 1),
                1).singletonOrThrow();
        NDArray channelsLast = conv.transpose(0, 2, 3, 1);
        conv.close();
        return channelsLast;
    }
}
