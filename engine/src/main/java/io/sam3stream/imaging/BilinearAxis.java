package io.sam3stream.imaging;

/**
 * The two source taps and weights of PyTorch's plain bilinear interpolation along one axis
 * ({@code F.interpolate(mode="bilinear", align_corners=False)} without antialiasing; ATen
 * {@code compute_source_index_and_lambda}): source position {@code max(0, scale·(i+0.5) − 0.5)} with
 * {@code scale = in/out} in float, taps {@code ⌊pos⌋} and the next one (clamped at the last), weights
 * {@code 1 − frac} and {@code frac}; equal sizes copy.
 */
final class BilinearAxis {

    private final int[] index0;
    private final int[] index1;
    private final float[] lambda0;
    private final float[] lambda1;

    private BilinearAxis(int[] index0, int[] index1, float[] lambda0, float[] lambda1) {
        this.index0 = index0;
        this.index1 = index1;
        this.lambda0 = lambda0;
        this.lambda1 = lambda1;
    }

    static BilinearAxis of(int inputSize, int outputSize) {
        int[] index0 = new int[outputSize];
        int[] index1 = new int[outputSize];
        float[] lambda0 = new float[outputSize];
        float[] lambda1 = new float[outputSize];
        float scale = (float) inputSize / outputSize;
        for (int i = 0; i < outputSize; i++) {
            if (inputSize == outputSize) {
                index0[i] = i;
                index1[i] = i;
                lambda0[i] = 1.0f;
                continue;
            }
            // formed in double, stored in float, as area_pixel_compute_source_index does
            float position = Math.max((float) (scale * (i + 0.5) - 0.5), 0.0f);
            int i0 = (int) position;
            index0[i] = i0;
            index1[i] = i0 < inputSize - 1 ? i0 + 1 : i0;
            lambda1[i] = position - i0;
            lambda0[i] = 1.0f - lambda1[i];
        }
        return new BilinearAxis(index0, index1, lambda0, lambda1);
    }

    int size() {
        return index0.length;
    }

    int index0(int i) {
        return index0[i];
    }

    int index1(int i) {
        return index1[i];
    }

    float lambda0(int i) {
        return lambda0[i];
    }

    float lambda1(int i) {
        return lambda1[i];
    }
}
