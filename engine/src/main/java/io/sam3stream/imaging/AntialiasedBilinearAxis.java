package io.sam3stream.imaging;

/**
 * The source taps and weights of PyTorch's antialiased bilinear resampling along one axis
 * ({@code F.interpolate(mode="bilinear", antialias=True, align_corners=False)}, the kernel behind torchvision's
 * {@code Resize}; ATen {@code UpSampleKernel.cpp}, {@code _compute_weights_aa} with the triangle filter).
 *
 * <p>For output index i: {@code scale = in/out} (float), {@code support = scale} when downscaling (else 1),
 * {@code center = scale·(i+0.5)}, taps {@code [trunc(center−support+0.5), trunc(center+support+0.5))} clipped to
 * the input, weight of tap j {@code = max(0, 1 − |(j − center + 0.5)/max(scale, 1)|)}, normalised to sum 1.
 * Every intermediate is rounded to float or kept in double exactly where the C++ does, so the weights are
 * bit-identical to upstream's.
 */
final class AntialiasedBilinearAxis {

    private final int outputSize;
    private final int maxTaps;
    private final int[] first;
    private final int[] count;
    private final float[] weights;

    private AntialiasedBilinearAxis(int outputSize, int maxTaps, int[] first, int[] count, float[] weights) {
        this.outputSize = outputSize;
        this.maxTaps = maxTaps;
        this.first = first;
        this.count = count;
        this.weights = weights;
    }

    static AntialiasedBilinearAxis of(int inputSize, int outputSize) {
        float scale = (float) inputSize / outputSize;
        // the C++ forms these in double and stores them in float variables
        float support = scale >= 1.0f ? (float) (1.0 * scale) : 1.0f;
        float invScale = scale >= 1.0f ? (float) (1.0 / scale) : 1.0f;
        int maxTaps = (int) Math.ceil(support) * 2 + 1;
        int[] first = new int[outputSize];
        int[] count = new int[outputSize];
        float[] weights = new float[outputSize * maxTaps];
        for (int i = 0; i < outputSize; i++) {
            float center = (float) (scale * (i + 0.5));
            int lo = Math.max((int) ((double) (center - support) + 0.5), 0);
            int hi = Math.min((int) ((double) (center + support) + 0.5), inputSize);
            int base = i * maxTaps;
            float total = 0.0f;
            for (int j = 0; j < hi - lo; j++) {
                float w = triangle((float) (((double) ((float) (j + lo) - center) + 0.5) * invScale));
                weights[base + j] = w;
                total += w;
            }
            if (total != 0.0f) {
                for (int j = 0; j < hi - lo; j++) {
                    weights[base + j] /= total;
                }
            }
            first[i] = lo;
            count[i] = hi - lo;
        }
        return new AntialiasedBilinearAxis(outputSize, maxTaps, first, count, weights);
    }

    /** The bilinear (triangle) filter; {@code 1.0 - x} is formed in double and returned as float, as upstream. */
    private static float triangle(float x) {
        float a = Math.abs(x);
        return a < 1.0f ? (float) (1.0 - a) : 0.0f;
    }

    int outputSize() {
        return outputSize;
    }

    /** First source index read by output {@code i}. */
    int first(int i) {
        return first[i];
    }

    /** Number of source indices read by output {@code i}. */
    int count(int i) {
        return count[i];
    }

    /** Weight of the {@code j}-th tap of output {@code i}. */
    float weight(int i, int j) {
        return weights[i * maxTaps + j];
    }
}
