package io.sam3stream.backend.nativebridge;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.fusion.FusionEncoder;
import io.sam3stream.model.fusion.ImageTokens;
import io.sam3stream.model.neck.ImageMemo;
import io.sam3stream.model.nn.StageLayouts;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.vision.Backbone;

/** The bridge's two islands as the model's {@link Backbone} and {@link FusionEncoder}. */
public final class NativeIslandModules {

    private NativeIslandModules() {}

    /** The model's islands served by {@code islands}. */
    public static Sam3Model.Islands of(NativeIslands islands) {
        Backbone backbone = (image, sink) -> {
            NDArray out = islands.backbone(image);
            sink.record("vit.out", out);
            return out;
        };
        // The bridge runs every layer itself: the memo is left unused.
        FusionEncoder fusion = (ImageTokens image, ImageMemo memo, NDArray prompt, NDArray promptMask,
                StageSink sink) -> {
            NDArray pos = image.pos().squeeze(0);
            NDArray memory = islands.fusionEncoder(image.tokens(), pos, prompt, promptMask);
            pos.close();
            StageLayouts.recordSequenceFirst(sink, "encoder.memory", memory);
            if (sink.active()) {
                try (NDArray broadcast = image.pos().broadcast(memory.getShape())) {
                    StageLayouts.recordSequenceFirst(sink, "encoder.pos_embed", broadcast);
                }
            }
            return memory;
        };
        return new Sam3Model.Islands(backbone, fusion, islands, islands::describe, islands::encoderTrace);
    }
}
