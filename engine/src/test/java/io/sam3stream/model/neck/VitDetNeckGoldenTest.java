package io.sam3stream.model.neck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.testing.TinyGolden;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The neck alone, fed upstream's own trunk output. */
class VitDetNeckGoldenTest {

    @Test
    void everyLevelAndEncodingMatchesUpstream() {
        try (NDManager manager = NDManager.newBaseManager()) {
            Params visionBackbone = Params.root(TinyGolden.weights(), manager).sub("backbone.vision_backbone");
            VitDetNeck neck = VitDetNeck.load(visionBackbone, TinyGolden.config().dModel(), NeckLevels.ALL);
            List<String> emitted = new ArrayList<>();
            StageSink sink = (name, value) -> {
                emitted.add(name);
                TinyGolden.assertStage(name, value);
            };
            try (ImageFeatures features = neck.forward(TinyGolden.output(manager, "vit.out"), sink)) {
                assertEquals(4, features.fpn().size());
            }
            assertEquals(List.of("neck.fpn0", "neck.pos0", "neck.fpn1", "neck.pos1", "neck.fpn2", "neck.pos2",
                    "neck.fpn3", "neck.pos3"), emitted);
        }
    }

    @Test
    void servingLevelsSkipTheHalfScaleBranch() {
        try (NDManager manager = NDManager.newBaseManager()) {
            Params visionBackbone = Params.root(TinyGolden.weights(), manager).sub("backbone.vision_backbone");
            VitDetNeck neck = VitDetNeck.load(visionBackbone, TinyGolden.config().dModel(), NeckLevels.USED);
            List<String> emitted = new ArrayList<>();
            NDArray trunkOut = TinyGolden.output(manager, "vit.out");
            try (ImageFeatures features = neck.forward(trunkOut, (name, value) -> emitted.add(name))) {
                assertEquals(List.of("neck.fpn0", "neck.pos0", "neck.fpn1", "neck.pos1", "neck.fpn2", "neck.pos2"),
                        emitted);
                TinyGolden.assertStage("neck.fpn0", features.fpn().get(0));
                TinyGolden.assertStage("neck.fpn2", features.visionFeatures());
            }
        }
    }
}
