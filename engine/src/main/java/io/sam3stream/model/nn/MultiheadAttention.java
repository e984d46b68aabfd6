package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.index.NDIndex;

/**
 * PyTorch's {@code nn.MultiheadAttention} with a packed input projection ({@code in_proj_weight} rows
 * [q | k | v]) and {@code out_proj}, used batch-first: inputs and output are (B, L, E).
 */
public final class MultiheadAttention {

    private final Linear qProj;
    private final Linear kProj;
    private final Linear vProj;
    private final Linear outProj;
    private final int heads;

    public MultiheadAttention(Linear qProj, Linear kProj, Linear vProj, Linear outProj, int heads) {
        this.qProj = qProj;
        this.kProj = kProj;
        this.vProj = vProj;
        this.outProj = outProj;
        this.heads = heads;
    }

    /**
     * Loads {@code name.in_proj_weight}, {@code name.in_proj_bias} and {@code name.out_proj.*}; the projections
     * compute in the tree's precision.
     */
    public static MultiheadAttention load(Params p, String name, int heads) {
        Params sub = p.sub(name);
        Precision precision = p.precision();
        NDArray w = sub.get("in_proj_weight");
        NDArray b = sub.get("in_proj_bias");
        long e = w.getShape().get(0) / 3;
        // The q/k/v rows are views; w and b must stay open while they are read: an array created from a buffer
        // only borrows that buffer's memory, so closing it would free the data its views still read. Narrowed
        // rows are copies, after which the float32 arrays are no longer needed.
        Linear[] qkv = new Linear[3];
        for (int i = 0; i < 3; i++) {
            NDIndex rows = new NDIndex("{}:{}", i * e, (i + 1) * e);
            qkv[i] = Linear.of(w.get(rows), b.get(rows), precision);
        }
        if (precision.bf16Linear()) {
            w.close();
            b.close();
        }
        return new MultiheadAttention(qkv[0], qkv[1], qkv[2], Linear.load(sub, "out_proj"), heads);
    }

    /**
     * This attention with its four projections' matrices blocked for products of a few rows
     * ({@link Linear#withBlockedMatrixForFewRows}); the projections of this object are taken over.
     */
    public MultiheadAttention withBlockedMatricesForFewRows() {
        return new MultiheadAttention(qProj.withBlockedMatrixForFewRows(), kProj.withBlockedMatrixForFewRows(),
                vProj.withBlockedMatrixForFewRows(), outProj.withBlockedMatrixForFewRows(), heads);
    }

    /**
     * Adds the projections to a graph's parameters as {@code name.q_proj}, {@code name.k_proj}, {@code name.v_proj}
     * (the three row blocks of {@code in_proj}) and {@code name.out_proj}.
     */
    public void addTo(GraphWeights.Builder graph, String name) {
        qProj.addTo(graph, name + ".q_proj");
        kProj.addTo(graph, name + ".k_proj");
        vProj.addTo(graph, name + ".v_proj");
        outProj.addTo(graph, name + ".out_proj");
    }

    /**
     * @param query          (B, Lq, E)
     * @param key            (B, Lk, E)
     * @param value          (B, Lk, E)
     * @param keyPaddingMask (B, Lk) booleans, true = ignore that key; or null
     * @param attnBias       additive float bias broadcastable to (B, heads, Lq, Lk); or null
     * @return (B, Lq, E)
     */
    public NDArray forward(NDArray query, NDArray key, NDArray value, NDArray keyPaddingMask, NDArray attnBias) {
        if (keyPaddingMask == null && attnBias == null
                && NativeBf16Attention.serves(outProj.precision(), outProj.weight().getShape().get(0) / heads)) {
            return forwardNative(query, key, value);
        }
        NDArray q = splitHeads(qProj.forward(query));
        NDArray k = splitHeads(kProj.forward(key));
        NDArray v = splitHeads(vProj.forward(value));
        NDArray bias = attnBias;
        NDArray paddingBias = null;
        if (keyPaddingMask != null) {
            paddingBias = Attention.keyPaddingBias(keyPaddingMask);
            bias = bias == null ? paddingBias : bias.add(paddingBias);
        }
        NDArray attended = Attention.scaledDotProduct(q, k, v, bias, outProj.precision());
        long[] s = attended.getShape().getShape();
        NDArray merged;
        try (NDArray headsLast = attended.transpose(0, 2, 1, 3)) {
            merged = headsLast.reshape(s[0], s[2], s[1] * s[3]);
        }
        NDArray out = outProj.forward(merged);
        for (NDArray a : new NDArray[] {q, k, v, attended, merged}) {
            a.close();
        }
        if (paddingBias != null) {
            if (bias != paddingBias) {
                bias.close();
            }
            paddingBias.close();
        }
        return out;
    }

    /** Unmasked attention in the native bfloat16 kernel, which takes the projections with their heads merged. */
    private NDArray forwardNative(NDArray query, NDArray key, NDArray value) {
        try (NDArray q = qProj.forward(query);
                NDArray k = kProj.forward(key);
                NDArray v = vProj.forward(value);
                NDArray attended = NativeBf16Attention.attend(q, k, v, heads)) {
            return outProj.forward(attended);
        }
    }

    /**
     * (B, L, E) → (B, heads, L, E/heads); closes {@code x}. The intermediate view is closed too: a view shares its
     * base's storage, so an open one keeps a whole projection alive until the caller's scope ends.
     */
    private NDArray splitHeads(NDArray x) {
        long[] s = x.getShape().getShape();
        try (x; NDArray grouped = x.reshape(s[0], s[1], heads, s[2] / heads)) {
            return grouped.transpose(0, 2, 1, 3);
        }
    }

    public int heads() {
        return heads;
    }
}
