package io.sam3stream.backend.nativebridge;

import io.sam3stream.device.BackboneConfig;
import io.sam3stream.device.FusionEncoderConfig;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.VitConfig;

/** The native islands' sizes taken from the model's configuration. */
final class IslandConfigs {

    private IslandConfigs() {}

    static BackboneConfig backbone(VitConfig vit) {
        return new BackboneConfig(vit.imgSize(), vit.pretrainImgSize(), vit.patchSize(), vit.embedDim(), vit.depth(),
                vit.numHeads(), vit.mlpHidden(), vit.windowSize(), vit.globalBlocks());
    }

    static FusionEncoderConfig encoder(Sam3Config config) {
        return new FusionEncoderConfig(config.dModel(), config.encoder().layers(), config.encoder().heads(),
                config.encoder().dimFeedforward());
    }
}
