package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.Scopes;

/**
 * The sine embedding of a reference box that conditions each decoder query (upstream
 * {@code model_misc.gen_sineembed_for_position} with 4 coordinates): every coordinate v ∈ [0, 1] becomes
 * {@code n = d/2} channels v·2π / 10000^(2⌊k/2⌋/n), sine at even k and cosine at odd k, and the four blocks are
 * concatenated as [y, x, w, h] (docs/MODEL.md §8.2).
 */
public final class BoxSineEmbedding {

    private static final float TEMPERATURE = 10000f;
    private static final float SCALE = (float) (2 * Math.PI);
    /** Source coordinate of each output block: cy, cx, w, h. */
    private static final int[] BLOCK_ORDER = {1, 0, 2, 3};

    private BoxSineEmbedding() {}

    /**
     * @param boxes  cxcywh boxes (…, 4) in [0, 1]
     * @param dModel decoder width d, a multiple of 4; the embedding has 2·d channels
     * @return (…, 2·d)
     */
    public static NDArray embed(NDArray boxes, int dModel) {
        if (dModel % 4 != 0) {
            throw new IllegalArgumentException("d_model must be a multiple of 4, got " + dModel);
        }
        return Scopes.keep(() -> {
            NDArray divisors = divisors(boxes.getManager(), dModel / 2);
            NDArray scaled = boxes.mul(SCALE);
            NDList blocks = new NDList(BLOCK_ORDER.length);
            for (int coordinate : BLOCK_ORDER) {
                blocks.add(embedCoordinate(scaled, coordinate, divisors));
            }
            return NDArrays.concat(blocks, -1);
        });
    }

    /** 10000^(2⌊k/2⌋/n) for k = 0..n−1: the divisor of channel k (consecutive sin/cos channels share one). */
    private static NDArray divisors(NDManager manager, int perCoordinate) {
        NDArray pairIndex = manager.arange(0f, perCoordinate, 1f).div(2f).floor();
        NDArray exponent = pairIndex.mul(2f).div((float) perCoordinate);
        return manager.full(new Shape(perCoordinate), TEMPERATURE).pow(exponent);
    }

    /** Interleaved sin/cos channels of one coordinate: (…, n). */
    private static NDArray embedCoordinate(NDArray scaled, int coordinate, NDArray divisors) {
        NDArray angles = scaled.get(new NDIndex("..., {}:{}", coordinate, coordinate + 1)).div(divisors);
        NDArray sines = angles.get(new NDIndex("..., 0::2")).sin();
        NDArray cosines = angles.get(new NDIndex("..., 1::2")).cos();
        return sines.stack(cosines, -1).reshape(angles.getShape());
    }
}
