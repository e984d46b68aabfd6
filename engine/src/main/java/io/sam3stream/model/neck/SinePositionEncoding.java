package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.Scopes;

/**
 * Upstream {@code PositionEmbeddingSine(num_pos_feats=d, normalize=True)} ({@code sam3/model/position_encoding.py};
 * docs/MODEL.md §4.2): the fixed 2-D sine encoding of a feature map's pixel grid.
 *
 * <p>For an H×W map, row i sits at y_i = (i+1)/(H+1e−6)·2π and column j at x_j = (j+1)/(W+1e−6)·2π. Each axis gets
 * d/2 channels: channel k holds sin(p/t_k) for even k and cos(p/t_k) for odd k, with
 * t_k = 10000^(2⌊k/2⌋/(d/2)). The encoding is [y channels, x channels], (B, d, H, W). Every value is rounded to
 * float32 in upstream's order of operations.
 */
public final class SinePositionEncoding {

    private static final float TEMPERATURE = 10000f;
    private static final float SCALE = (float) (2 * Math.PI);
    private static final float EPS = 1e-6f;

    private final int numPosFeats;

    /** @param numPosFeats total channels d (d_model); a multiple of 4 so that each axis has whole sin/cos pairs */
    public SinePositionEncoding(int numPosFeats) {
        if (numPosFeats <= 0 || numPosFeats % 4 != 0) {
            throw new IllegalArgumentException("sine position encoding needs a positive multiple of 4 channels, got "
                    + numPosFeats);
        }
        this.numPosFeats = numPosFeats;
    }

    /** The encoding of {@code map}'s grid, (B, d, H, W), in the map's manager (upstream {@code forward(x)}). */
    public NDArray forward(NDArray map) {
        Shape s = map.getShape();
        int dims = s.dimension();
        return encode(map.getManager(), s.get(0), Math.toIntExact(s.get(dims - 2)), Math.toIntExact(s.get(dims - 1)));
    }

    /** The encoding of a {@code height × width} grid repeated over {@code batch}, (batch, d, height, width). */
    public NDArray encode(NDManager manager, long batch, int height, int width) {
        int half = numPosFeats / 2;
        Shape axisShape = new Shape(batch, half, height, width);
        return Scopes.keep(() -> {
            NDArray rows = manager.create(axisTable(height, half), new Shape(1, half, height, 1)).broadcast(axisShape);
            NDArray cols = manager.create(axisTable(width, half), new Shape(1, half, 1, width)).broadcast(axisShape);
            return rows.concat(cols, 1);
        });
    }

    /**
     * The encoding of one axis of {@code length} positions, (channels, length) row-major: what upstream computes
     * for every row (y) or every column (x) of the map.
     */
    static float[] axisTable(int length, int channels) {
        float[] frequencies = new float[channels];
        for (int k = 0; k < channels; k++) {
            float exponent = (2f * (k / 2)) / channels;
            frequencies[k] = (float) Math.pow(TEMPERATURE, exponent);
        }
        float denominator = (float) length + EPS;
        float[] table = new float[channels * length];
        for (int i = 0; i < length; i++) {
            float position = (float) (i + 1) / denominator * SCALE;
            for (int k = 0; k < channels; k++) {
                float phase = position / frequencies[k];
                table[k * length + i] = (float) (k % 2 == 0 ? Math.sin(phase) : Math.cos(phase));
            }
        }
        return table;
    }
}
