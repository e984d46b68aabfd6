package io.sam3stream.model.vision;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.config.VitConfig;
import io.sam3stream.model.nn.Params;
import io.sam3stream.testing.TinyGolden;
import org.junit.jupiter.api.Test;

class AbsolutePositionEmbeddingTest {

    @Test
    void tilesThePretrainGridWithoutInterpolating() {
        try (NDManager manager = NDManager.newBaseManager()) {
            // 2x2 grid of 1-channel embeddings after a cls row of 99, tiled over 3x3
            NDArray posEmbed = manager.create(new float[] {99, 1, 2, 3, 4}, new Shape(1, 5, 1));
            NDArray tiled = AbsolutePositionEmbedding.tiled(posEmbed, 2, 3);
            assertArrayEquals(new long[] {1, 3, 3, 1}, tiled.getShape().getShape());
            assertArrayEquals(new float[] {1, 2, 1, 3, 4, 3, 1, 2, 1}, tiled.toFloatArray());
        }
    }

    @Test
    void checkpointAndHuggingFaceLayoutsGiveTheGoldenEmbedding() {
        VitConfig vit = TinyGolden.config().vit();
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray withCls = Params.root(TinyGolden.weights(), manager).get("backbone.vision_backbone.trunk.pos_embed");
            NDArray withoutCls = withCls.get(":, 1:, :");
            NDArray fromPt = AbsolutePositionEmbedding.tiled(withCls, vit.pretrainGrid(), vit.grid());
            NDArray fromHf = AbsolutePositionEmbedding.tiled(withoutCls, vit.pretrainGrid(), vit.grid());
            TinyGolden.assertStage("vit.abs_pos", fromPt);
            assertArrayEquals(fromPt.toFloatArray(), fromHf.toFloatArray(), 0f);
        }
    }

    @Test
    void refusesARowCountThatIsNotTheGrid() {
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray posEmbed = manager.zeros(new Shape(1, 6, 1));
            assertThrows(IllegalArgumentException.class, () -> AbsolutePositionEmbedding.tiled(posEmbed, 2, 4));
        }
    }
}
