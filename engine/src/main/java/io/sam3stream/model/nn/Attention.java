package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;

/**
 * Scaled dot-product attention, softmax(q·kᵀ/√d + bias)·v: libtorch's fused kernel when
 * {@link ComputeOptions#fusedAttention} is on, else op by op in query chunks so that the logits of a 5184-token
 * global attention (16 × 5184² floats = 1.7 GB) are never materialised at once. With bfloat16 attention
 * ({@link Precision#bf16Attention}) the fused kernel always runs, on bfloat16 operands.
 */
public final class Attention {

    /** Largest number of logits held at once (64 Mi floats = 256 MB). */
    private static final long MAX_LOGITS = 64L << 20;

    private Attention() {}

    /**
     * @param q    queries (B, H, Lq, D)
     * @param k    keys (B, H, Lk, D)
     * @param v    values (B, H, Lk, Dv)
     * @param bias      additive logit bias broadcastable to (B, H, Lq, Lk) (−∞ masks a key), or null
     * @param precision the precision of the module that attends
     * @return (B, H, Lq, Dv)
     */
    public static NDArray scaledDotProduct(NDArray q, NDArray k, NDArray v, NDArray bias, Precision precision) {
        if (precision.bf16Attention() || ComputeOptions.current().fusedAttention()) {
            return fused(q, k, v, bias, precision);
        }
        long[] qs = q.getShape().getShape();
        // q and k may broadcast over the batch (one image's tokens against several prompts): the logits take
        // the larger of the two batches
        long batchHeads = Math.max(qs[0], k.getShape().get(0)) * qs[1];
        long lq = qs[2];
        long lk = k.getShape().get(2);
        float scale = (float) (1.0 / Math.sqrt(qs[3]));
        NDArray kt = k.transpose(0, 1, 3, 2);
        long chunk = Math.max(1, Math.min(lq, MAX_LOGITS / Math.max(1, batchHeads * lk)));
        if (chunk >= lq) {
            NDArray out = attend(q, kt, v, bias, scale);
            kt.close();
            return out;
        }
        NDList parts = new NDList();
        for (long start = 0; start < lq; start += chunk) {
            long end = Math.min(lq, start + chunk);
            NDIndex rows = new NDIndex(":, :, {}:{}", start, end);
            NDArray qChunk = q.get(rows);
            NDArray biasChunk = bias == null || bias.getShape().get(bias.getShape().dimension() - 2) == 1
                    ? bias
                    : bias.get(rows);
            parts.add(attend(qChunk, kt, v, biasChunk, scale));
            qChunk.close();
            if (biasChunk != bias) {
                biasChunk.close();
            }
        }
        NDArray out = NDArrays.concat(parts, 2);
        parts.close();
        kt.close();
        return out;
    }

    /**
     * The fused kernel needs q, k and v of one batch size (libtorch otherwise falls back to its unfused form): the
     * side with batch 1 is expanded, which is a view.
     */
    private static NDArray fused(NDArray q, NDArray k, NDArray v, NDArray bias, Precision precision) {
        long qBatch = q.getShape().get(0);
        long kBatch = k.getShape().get(0);
        if (qBatch == kBatch) {
            return fusedKernel(q, k, v, bias, precision);
        }
        return Scopes.keep(() -> qBatch == 1
                ? fusedKernel(expandBatch(q, kBatch), k, v, bias, precision)
                : fusedKernel(q, expandBatch(k, qBatch), expandBatch(v, qBatch), bias, precision));
    }

    private static NDArray fusedKernel(NDArray q, NDArray k, NDArray v, NDArray bias, Precision precision) {
        return precision.bf16Attention() ? FusedOps.attentionBf16(q, k, v, bias) : FusedOps.attention(q, k, v, bias);
    }

    private static NDArray expandBatch(NDArray x, long batch) {
        long[] shape = x.getShape().getShape().clone();
        shape[0] = batch;
        return x.broadcast(new Shape(shape));
    }

    private static NDArray attend(NDArray q, NDArray kt, NDArray v, NDArray bias, float scale) {
        NDArray scaled = q.mul(scale);
        NDArray logits = scaled.matMul(kt);
        scaled.close();
        if (bias != null) {
            logits.addi(bias);
        }
        NDArray weights = logits.softmax(-1);
        logits.close();
        NDArray out = weights.matMul(v);
        weights.close();
        return out;
    }

    /**
     * The additive bias of a PyTorch {@code key_padding_mask}: (B, Lk) booleans, true = ignore the key, become
     * (B, 1, 1, Lk) floats that are −∞ on ignored keys and 0 elsewhere.
     */
    public static NDArray keyPaddingBias(NDArray keyPaddingMask) {
        long[] s = keyPaddingMask.getShape().getShape();
        NDArray zeros = keyPaddingMask.getManager().zeros(keyPaddingMask.getShape());
        NDArray negInf = keyPaddingMask.getManager().full(keyPaddingMask.getShape(), Float.NEGATIVE_INFINITY);
        NDArray bias = NDArrays.where(keyPaddingMask, negInf, zeros);
        zeros.close();
        negInf.close();
        return bias.reshape(s[0], 1, 1, s[1]);
    }
}
