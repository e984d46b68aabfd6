package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The segmentation head's mask product in the compiled graph: queries (B, Q, C) against channels-last pixel
 * embeddings (B, H·W, C) give the mask logits (B, Q, H·W), by libtorch's matmul for small products and by oneDNN,
 * one image at a time, from 2^21 multiply-adds per image. Both must give the plain product to float rounding, for one
 * image and for a batch.
 */
class PromptGraphsMaskProductTest {

    private static final ScriptModule GRAPHS = ScriptModule.compile("PromptGraphs");

    @ParameterizedTest(name = "{0} images, {1} queries, {2} channels, {3} pixels")
    @CsvSource({
        "1, 10, 32, 2304",   // the tiny model's: libtorch's matmul
        "1, 20, 32, 4096",   // 2.6 M multiply-adds: oneDNN
        "3, 20, 32, 4096",   // a batch: oneDNN per image
    })
    void givesThePlainProduct(int images, int queries, int channels, int pixels) {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray embed = m.randomNormal(new Shape(images, queries, channels));
            NDArray embedding = m.randomNormal(new Shape(images, pixels, channels));
            float[] expected = embed.matMul(embedding.transpose(0, 2, 1)).toFloatArray();
            NDArray masks = GRAPHS.runTensors("mask_product", m,
                    new ScriptCall().tensor(embed).tensor(embedding)).singletonOrThrow();
            assertEquals(new Shape(images, queries, pixels), masks.getShape());
            // sums of 32 products of unit normals: float rounding in another summation order stays well below 1e-4
            assertArrayEquals(expected, masks.toFloatArray(), 1e-4f);
        }
    }
}
