package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import java.util.List;

/**
 * The prompt side's modules as compiled graphs: each module's forward is one TorchScript method
 * (source: {@code PromptGraphs.torchscript} beside this class) that reads the module's parameters from its
 * {@link GraphWeights}, so a prompt costs one call per module instead of one JNI call, one dispatch and one Java
 * object per operator. The methods compute what the modules' op-by-op Java forms compute, operator for operator
 * (checked against them and against the golden stages); those forms stay the readable reference and the path taken
 * when {@link ComputeOptions#moduleGraphs} is off. Differences in how, not what: a float32 product of at least 2^21
 * multiply-adds (the full-size fusion encoder's, decoder's and text encoder's linear layers, the segmentation head's
 * mask product) is oneDNN's in the graph, which runs at the CPU's widest vectors where libtorch's BLAS may not; a
 * bfloat16 layer's blocked matrix ({@link Linear#withBlockedMatrixForFewRows}) is multiplied by oneDNN's inner
 * product, which applies a GELU to the float32 accumulator before rounding; the same sums in another order.
 *
 * <p>Results are allocated in the manager of the first array argument and must only be read.
 */
public final class PromptGraphs {

    private PromptGraphs() {}

    private static final class Module {
        static final ScriptModule INSTANCE = ScriptModule.compile("PromptGraphs");
    }

    /**
     * The decoder ({@code TransformerDecoder} with its box refinement, box-relative attention bias and presence
     * head), every layer.
     *
     * @return every layer's normed queries (L, B, Q, d), the last refined boxes (B, Q, 4), every layer's presence
     *         logit (L, B, 1), every layer's reference boxes (L, B, Q, 4) and the last presence token (1, B, d)
     */
    public static NDList decoder(NDArray memory, NDArray memoryPos, NDArray prompt, NDArray promptMask,
            GraphWeights weights, int layers, int heads, int grid) {
        return Module.INSTANCE.runTensors("decoder", memory.getManager(), new ScriptCall().tensor(memory)
                .tensor(memoryPos).tensor(prompt).tensor(promptMask).weights(weights).integer(layers)
                .integer(heads).integer(grid));
    }

    /**
     * The part of the fusion encoder that depends on the image alone: the first layer's self-attention of the image
     * tokens (batch 1 or B), with their positions on queries and keys, and its residual.
     *
     * @param bf16Attention attention with bfloat16 operands; the linear layers compute in their weights' format
     * @return (batch of the image, H·W, d)
     */
    public static NDArray fusionFirstSelfAttention(NDArray image, NDArray imagePos, GraphWeights weights,
            int heads, boolean bf16Attention) {
        return Module.INSTANCE.runTensors("fusion_first_self_attention", image.getManager(), new ScriptCall()
                .tensor(image).tensor(imagePos).weights(weights).integer(heads).flag(bf16Attention))
                .singletonOrThrow();
    }

    /**
     * The rest of the fusion encoder: the first layer from its cross-attention to the B prompts on, then every
     * further layer.
     *
     * @param firstSelfAttended {@link #fusionFirstSelfAttention} of the image
     * @param bf16Attention     as for {@link #fusionFirstSelfAttention}
     * @return the memory (B, H·W, d)
     */
    public static NDArray fusionEncoder(NDArray firstSelfAttended, NDArray imagePos, NDArray prompt,
            NDArray promptMask, GraphWeights weights, int layers, int heads, boolean bf16Attention) {
        return Module.INSTANCE.runTensors("fusion_encoder", firstSelfAttended.getManager(), new ScriptCall()
                .tensor(firstSelfAttended).tensor(imagePos).tensor(prompt).tensor(promptMask).weights(weights)
                .integer(layers).integer(heads).flag(bf16Attention)).singletonOrThrow();
    }

    /**
     * One fusion encoder layer's self-attention up to the attention itself, for {@link NativeBf16Attention}:
     * {@code norm1}, the positions added for the queries and keys, and the three projections in bfloat16.
     *
     * @param x     (B, H·W, d) the layer's input
     * @param layer the layer's name in the weights ({@code layers.i})
     * @return q, k and v, each (B, H·W, d) bfloat16
     */
    public static NDList selfAttentionProjections(NDArray x, NDArray pos, GraphWeights weights, String layer) {
        return Module.INSTANCE.runTensors("self_attention_projections", x.getManager(), new ScriptCall().tensor(x)
                .tensor(pos).weights(weights).text(layer));
    }

    /**
     * The rest of a layer's self-attention after {@link NativeBf16Attention}: the output projection and the
     * residual onto the layer's input {@code x}.
     *
     * @param attended (B, H·W, d) bfloat16, heads merged
     * @return (B, H·W, d)
     */
    public static NDArray selfAttentionOutput(NDArray attended, NDArray x, GraphWeights weights, String layer) {
        return Module.INSTANCE.runTensors("self_attention_output", x.getManager(), new ScriptCall()
                .tensor(attended).tensor(x).weights(weights).text(layer)).singletonOrThrow();
    }

    /**
     * One fusion encoder layer after its self-attention: the cross-attention to the B prompts (padding masked) and
     * the feed-forward block, each with its residual.
     *
     * @param afterSelf     (batch of the image or B, H·W, d)
     * @param bf16Attention the cross-attention's products take bfloat16 operands (the model's
     *                      {@link Precision#bf16Attention})
     * @return (B, H·W, d)
     */
    public static NDArray fusionCrossAttentionAndFeedForward(NDArray afterSelf, NDArray prompt, NDArray promptMask,
            GraphWeights weights, String layer, int heads, boolean bf16Attention) {
        return Module.INSTANCE.runTensors("fusion_cross_attention_and_ffn", afterSelf.getManager(), new ScriptCall()
                .tensor(afterSelf).tensor(prompt).tensor(promptMask).weights(weights).text(layer).integer(heads)
                .flag(bf16Attention)).singletonOrThrow();
    }

    /**
     * The geometry encoder after its box embeddings: {@code final_proj}, {@code norm}, every layer (padding
     * masked; cross-attention to the image tokens with their positions on the keys) and {@code encode_norm}.
     * While the batch has at most the model's width in query rows (prompts × heads × tokens), the cross-attention
     * reaches the image tokens through its key and value matrices instead of projecting all H·W of them: the same
     * function, summed in another order, at about a thirtieth of the cost for a text prompt at full size.
     *
     * @param sequence (B, N+1, d) per prompt its box embeddings, CLS and padding
     * @param mask     (B, N+1) true = padding
     * @return (B, N+1, d)
     */
    public static NDArray geometryEncoder(NDArray sequence, NDArray mask, NDArray image, NDArray imagePos,
            GraphWeights weights, int layers, int heads) {
        return Module.INSTANCE.runTensors("geometry_encoder", sequence.getManager(), new ScriptCall()
                .tensor(sequence).tensor(mask).tensor(image).tensor(imagePos).weights(weights).integer(layers)
                .integer(heads)).singletonOrThrow();
    }

    /**
     * The text encoder: the causal text transformer and the {@code resizer}.
     *
     * @param ids           (B, L) int64 token ids
     * @param computed      how many leading positions to compute (1 ≤ computed ≤ L); the rest must be padding
     * @param bf16Attention attention with bfloat16 operands; the linear layers compute in their weights' format
     * @return the per-token states after {@code ln_final} (B, computed, width) and the resized features
     *         (B, computed, d)
     */
    public static NDList textEncoder(NDArray ids, int computed, GraphWeights weights, int layers, int heads,
            boolean bf16Attention) {
        return Module.INSTANCE.runTensors("text_encoder", ids.getManager(), new ScriptCall().tensor(ids)
                .integer(computed).weights(weights).integer(layers).integer(heads).flag(bf16Attention));
    }

    /**
     * Detection post-processing of one prompt: score = sigmoid(logit) · sigmoid(presence), kept when above the
     * threshold, in query order; the kept queries' boxes as normalised xyxy and their mask logits.
     *
     * @param logits        (Q, 1) class logits
     * @param presenceLogit (1) presence logit
     * @param boxes         (Q, 4) cxcywh in [0, 1]
     * @param masks         (Q, H, W) mask logits
     * @return the presence (1), every query's score (Q), the keep mask (Q), the kept boxes (K, 4) and the kept
     *         masks (K, H, W)
     */
    public static NDList detections(NDArray logits, NDArray presenceLogit, NDArray boxes, NDArray masks,
            float threshold) {
        return Module.INSTANCE.runTensors("detections", logits.getManager(), new ScriptCall().tensor(logits)
                .tensor(presenceLogit).tensor(boxes).tensor(masks).number(threshold));
    }

    /**
     * {@code DotProductScoring}.
     *
     * @return logits (L, B, Q, 1)
     */
    public static NDArray scoring(NDArray hs, NDArray prompt, NDArray promptMask, GraphWeights weights) {
        return Module.INSTANCE.runTensors("scoring", hs.getManager(), new ScriptCall().tensor(hs).tensor(prompt)
                .tensor(promptMask).weights(weights)).singletonOrThrow();
    }

    /**
     * The segmentation head's inference path.
     *
     * @param levelTerms the pixel decoder's per-image terms of the pyramid levels finer than the memory, finest
     *                   first ({@code PixelDecoder.levelTerms})
     * @param record     also return the stages the golden comparison reads
     * @return the mask logits (B, Q, 4G, 4G), then, when recording, the prompt-attended memory (B, G·G, d), the
     *         pixel embedding, the instance embeddings and the semantic logits
     */
    public static NDList segmentationHead(NDArray memory, NDArray prompt, NDArray promptMask,
            List<NDArray> levelTerms, NDArray queries, GraphWeights weights, int heads, int grid, boolean record) {
        return Module.INSTANCE.runTensors("segmentation_head", memory.getManager(), new ScriptCall().tensor(memory)
                .tensor(prompt).tensor(promptMask).tensors(levelTerms).tensor(queries).weights(weights).integer(heads)
                .integer(grid).flag(record));
    }
}
