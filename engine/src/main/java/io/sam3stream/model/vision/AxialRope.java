package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.FusedOps;
import io.sam3stream.model.nn.Scopes;

/**
 * The 2-D axial rotary position embedding of the ViT attention (upstream {@code compute_axial_cis} and
 * {@code apply_rotary_enc} in {@code sam3/model/vitdet.py}; docs/MODEL.md §3.4).
 *
 * <p>The channels of one head are read as {@code headDim/2} interleaved pairs (2j, 2j+1), each a complex number.
 * With {@code q = headDim/4} frequencies f_k = 10000^(−4k/headDim), pair k &lt; q is rotated by x·f_k and pair
 * q + k by y·f_k, where (x, y) = (column, row) of the token in a row-major square grid, multiplied by
 * {@code scalePos}. Window blocks use local window coordinates at scale 1; global blocks use the whole grid at
 * scale window/grid, which is how upstream interpolates the table it was trained with.
 *
 * <p>The table is always recomputed from these rules; the checkpoint's complex {@code freqs_cis} buffers are
 * never read (DJL has no complex type, and they are a pure function of the configuration).
 */
public final class AxialRope {

    private static final double THETA = 10000.0;

    /** cos of every angle, (tokens, headDim/2). */
    private final NDArray cos;
    /** sin of every angle, (tokens, headDim/2). */
    private final NDArray sin;
    /** cos + i·sin, (tokens, 1, 1, headDim/2) complex, for {@link #rotateQk}. */
    private final NDArray complex;

    private AxialRope(NDArray cos, NDArray sin, NDArray complex) {
        this.cos = cos;
        this.sin = sin;
        this.complex = complex;
    }

    /**
     * The rotation table for a {@code side × side} grid of tokens.
     *
     * @param manager  owns the table for the model's lifetime
     * @param side     tokens per side of the grid the attention runs over
     * @param headDim  channels per head (a multiple of 4)
     * @param scalePos factor applied to the integer token coordinates
     */
    public static AxialRope create(NDManager manager, int side, int headDim, float scalePos) {
        float[] angles = angles(side, headDim, scalePos);
        float[] cos = new float[angles.length];
        float[] sin = new float[angles.length];
        for (int i = 0; i < angles.length; i++) {
            cos[i] = (float) Math.cos(angles[i]);
            sin[i] = (float) Math.sin(angles[i]);
        }
        Shape shape = new Shape((long) side * side, headDim / 2);
        NDArray cosTable = manager.create(cos, shape);
        NDArray sinTable = manager.create(sin, shape);
        return new AxialRope(cosTable, sinTable, FusedOps.rotaryTable(cosTable, sinTable));
    }

    /**
     * The rotation angle of every (token, pair), row-major with shape (side², headDim/2): the argument of
     * upstream's {@code torch.polar}, rounded to float32 after every step in upstream's order.
     */
    public static float[] angles(int side, int headDim, float scalePos) {
        if (headDim <= 0 || headDim % 4 != 0) {
            throw new IllegalArgumentException("axial RoPE needs a head dim that is a positive multiple of 4, got "
                    + headDim);
        }
        int quarter = headDim / 4;
        int pairs = headDim / 2;
        float[] freqs = new float[quarter];
        for (int k = 0; k < quarter; k++) {
            float exponent = (float) (4 * k) / headDim;
            freqs[k] = 1f / (float) Math.pow(THETA, exponent);
        }
        int tokens = side * side;
        float[] angles = new float[tokens * pairs];
        for (int t = 0; t < tokens; t++) {
            float x = (float) (t % side) * scalePos;
            float y = (float) (t / side) * scalePos;
            for (int k = 0; k < quarter; k++) {
                angles[t * pairs + k] = x * freqs[k];
                angles[t * pairs + quarter + k] = y * freqs[k];
            }
        }
        return angles;
    }

    /** cos + i·sin, (tokens, 1, 1, headDim/2) complex64, for {@link FusedOps#vitAttentionBf16}. */
    public NDArray complexTable() {
        return complex;
    }

    /**
     * Rotates the queries and keys of a packed projection together, as one complex multiply.
     *
     * @param qkv   (N, tokens, 3C) the attention's packed projection [q | k | v], contiguous
     * @param heads heads per token; C / heads must equal the table's head dim
     * @return (N, tokens, 2, heads, headDim): rotated q at index 0 of axis 2, rotated k at index 1
     */
    public NDArray rotateQk(NDArray qkv, int heads) {
        Shape shape = qkv.getShape();
        if (shape.dimension() != 3 || shape.get(1) != cos.getShape().get(0)
                || shape.get(2) != 3L * heads * 2 * cos.getShape().get(1)) {
            throw new IllegalArgumentException("RoPE table is " + cos.getShape() + " pairs but packed qkv is " + shape
                    + " with " + heads + " heads");
        }
        return FusedOps.rotateQk(qkv, complex, heads);
    }

    /**
     * Rotates queries or keys.
     *
     * @param x (..., tokens, headDim) where tokens equals the table's length
     * @return a new array of the same shape
     */
    public NDArray apply(NDArray x) {
        Shape shape = x.getShape();
        long tokens = shape.get(shape.dimension() - 2);
        if (tokens != cos.getShape().get(0) || shape.get(shape.dimension() - 1) != 2 * cos.getShape().get(1)) {
            throw new IllegalArgumentException("RoPE table is " + cos.getShape() + " pairs but input is " + shape);
        }
        long[] pairShape = new long[shape.dimension() + 1];
        System.arraycopy(shape.getShape(), 0, pairShape, 0, shape.dimension() - 1);
        pairShape[shape.dimension() - 1] = shape.get(shape.dimension() - 1) / 2;
        pairShape[shape.dimension()] = 2;
        return Scopes.keep(() -> {
            NDArray pairs = x.reshape(pairShape);
            NDArray re = pairs.get("..., 0");
            NDArray im = pairs.get("..., 1");
            // (re + i·im)(cos + i·sin), the complex product upstream takes
            NDArray rotatedRe = re.mul(cos).subi(im.mul(sin));
            NDArray rotatedIm = re.mul(sin).addi(im.mul(cos));
            return rotatedRe.stack(rotatedIm, -1).reshape(shape);
        });
    }
}
