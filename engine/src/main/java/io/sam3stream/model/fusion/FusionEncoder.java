package io.sam3stream.model.fusion;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.neck.ImageMemo;
import io.sam3stream.model.nn.StageSink;

/**
 * The fusion encoder as a device island: image tokens attend to themselves and to the prompt. The DJL
 * implementation is {@link TransformerEncoderFusion}; the JNI bridge provides one on the host C++ library or a
 * p150a.
 */
public interface FusionEncoder {

    /**
     * @param image      the 1× level (batch 1) with its positions
     * @param memo       the image's memo, where an implementation may keep what depends on the image alone
     * @param prompt     (B, Lp, d) prompt sequence
     * @param promptMask (B, Lp) true = padding
     * @param sink       receives {@code encoder.memory} and {@code encoder.pos_embed}
     * @return (B, H·W, d) the encoder memory, batch-first
     */
    NDArray encode(ImageTokens image, ImageMemo memo, NDArray prompt, NDArray promptMask, StageSink sink);
}
