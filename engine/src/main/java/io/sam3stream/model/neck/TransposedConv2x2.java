package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;

/**
 * {@code nn.ConvTranspose2d(in, out, kernel_size=2, stride=2)}, the neck's 2× upsampling.
 *
 * <p>DJL's PyTorch engine has no transposed convolution. With kernel = stride = 2 the output patches do not
 * overlap: input pixel (i, j) alone produces the 2×2 output block at (2i, 2j), as
 * out[o, 2i+a, 2j+b] = Σ_c x[c, i, j] · w[c, o, a, b] + bias[o]. That is one matrix product per pixel with the
 * weight viewed as (in, out·4), followed by a pixel shuffle.
 *
 * @param weightMatrix upstream weight (in, out, 2, 2) viewed as (in, out·4)
 * @param bias         (1, out, 1, 1)
 */
public record TransposedConv2x2(NDArray weightMatrix, NDArray bias) implements FeatureMapLayer {

    /** Loads {@code name.weight} (in, out, 2, 2) and {@code name.bias} (out). */
    public static TransposedConv2x2 load(Params p, String name) {
        Params sub = p.sub(name);
        NDArray weight = sub.get("weight");
        long[] s = weight.getShape().getShape();
        if (s.length != 4 || s[2] != 2 || s[3] != 2) {
            throw new IllegalArgumentException(sub.qualify("weight") + " is " + weight.getShape()
                    + ", expected (in, out, 2, 2)");
        }
        NDArray matrix = weight.reshape(s[0], s[1] * 4);
        weight.close();
        return new TransposedConv2x2(matrix, sub.get("bias").reshape(1, s[1], 1, 1));
    }

    /**
     * Adds {@code name.matrix} (in, 4·out) and {@code name.bias} (1, out, 1, 1) to a graph's parameters, in the
     * shapes {@link #forward} multiplies with.
     */
    public void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".matrix", weightMatrix);
        graph.put(name + ".bias", bias);
    }

    @Override
    public NDArray forward(NDArray map) {
        long[] s = map.getShape().getShape();
        long out = bias.getShape().get(1);
        return Scopes.keep(() -> map.transpose(0, 2, 3, 1)
                .matMul(weightMatrix)
                .reshape(s[0], s[2], s[3], out, 2, 2)
                .transpose(0, 3, 1, 4, 2, 5)
                .reshape(s[0], out, 2 * s[2], 2 * s[3])
                .addi(bias));
    }
}
