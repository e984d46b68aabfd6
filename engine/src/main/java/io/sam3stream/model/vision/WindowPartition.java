package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.Scopes;

/**
 * Splits a (B, H, W, C) token map into non-overlapping square windows and back (upstream
 * {@code window_partition} / {@code window_unpartition} in {@code sam3/model/vitdet.py}). Windows are enumerated
 * row-major over (window row, window column) per image, and tokens inside a window are row-major.
 *
 * <p>Upstream pads maps whose side is not a multiple of the window, and the zero tokens then take part in
 * attention unmasked; the configuration forbids such sizes ({@code VitConfig}), so this class refuses them instead
 * of reproducing that path.
 */
public final class WindowPartition {

    private WindowPartition() {}

    /**
     * @param x      (B, H, W, C) with H and W multiples of {@code window}
     * @param window window side in tokens
     * @return (B · H/window · W/window, window, window, C)
     */
    public static NDArray partition(NDArray x, int window) {
        long[] s = x.getShape().getShape();
        requireMultiple(s[1], s[2], window);
        return Scopes.keep(() -> x.reshape(s[0], s[1] / window, window, s[2] / window, window, s[3])
                .transpose(0, 1, 3, 2, 4, 5)
                .reshape(-1, window, window, s[3]));
    }

    /**
     * The inverse of {@link #partition}.
     *
     * @param windows (B · height/window · width/window, window, window, C)
     * @param window  window side in tokens
     * @param height  H of the map the windows were cut from
     * @param width   W of the map the windows were cut from
     * @return (B, height, width, C)
     */
    public static NDArray unpartition(NDArray windows, int window, long height, long width) {
        requireMultiple(height, width, window);
        long[] s = windows.getShape().getShape();
        long perImage = (height / window) * (width / window);
        if (s[0] % perImage != 0 || s[1] != window || s[2] != window) {
            throw new IllegalArgumentException("windows " + windows.getShape() + " do not tile a " + height + "x"
                    + width + " map with window " + window);
        }
        return Scopes.keep(() -> windows
                .reshape(s[0] / perImage, height / window, width / window, window, window, s[3])
                .transpose(0, 1, 3, 2, 4, 5)
                .reshape(s[0] / perImage, height, width, s[3]));
    }

    private static void requireMultiple(long height, long width, int window) {
        if (window <= 0 || height % window != 0 || width % window != 0) {
            throw new IllegalArgumentException("a " + height + "x" + width + " map cannot be cut into windows of "
                    + window);
        }
    }
}
