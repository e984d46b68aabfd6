package io.sam3stream.imaging;

/**
 * Resizes an 8-bit RGB image like torchvision's {@code Resize(antialias=True)} on its float path: the uint8 image
 * is taken as float32 and interpolated with PyTorch's separable antialiased bilinear kernel
 * ({@code _upsample_bilinear2d_aa}, CPU), first along the width into a float32 intermediate, then along the
 * height; the result is rounded half-to-even ({@code torch.round}) to the uint8 levels, returned as float32
 * (every value an integer 0..255), which is the form the model input is computed from.
 *
 * <p>Each output sample accumulates its taps in order as {@code acc = x₀·w₀; acc = fma(xⱼ, wⱼ, acc)}: the
 * reference build (x86-64, AVX2 kernel) contracts {@code output += t * w} into a fused multiply-add, and only
 * that order reproduces the reference's uint8 output bit for bit.
 */
final class AntialiasedBilinearResize {

    /** Rows per parallel task: below this the hand-off costs more than it saves. */
    private static final int MIN_ROWS_PER_TASK = 16;

    private final int outputHeight;
    private final int outputWidth;

    AntialiasedBilinearResize(int outputHeight, int outputWidth) {
        this.outputHeight = outputHeight;
        this.outputWidth = outputWidth;
    }

    /** The resized image's uint8 levels as float32, channel-major (3 × outputHeight × outputWidth). */
    float[] resizeToChw(RgbImage image) {
        AntialiasedBilinearAxis columns = AntialiasedBilinearAxis.of(image.width(), outputWidth);
        AntialiasedBilinearAxis rows = AntialiasedBilinearAxis.of(image.height(), outputHeight);
        float[] widthResized = new float[3 * image.height() * outputWidth];
        ParallelRanges.forEach(image.height(), MIN_ROWS_PER_TASK,
                (from, to) -> resizeRows(image, columns, widthResized, from, to));
        float[] out = new float[3 * outputHeight * outputWidth];
        ParallelRanges.forEach(3 * outputHeight, MIN_ROWS_PER_TASK,
                (from, to) -> resizeColumns(widthResized, image.height(), rows, out, from, to));
        return out;
    }

    /** Width pass over input rows [from, to): interleaved uint8 in, one float plane per channel out. */
    private void resizeRows(RgbImage image, AntialiasedBilinearAxis columns, float[] planes, int from, int to) {
        byte[] src = image.pixels();
        int plane = image.height() * outputWidth;
        for (int y = from; y < to; y++) {
            int rowStart = y * image.width() * 3;
            int outRow = y * outputWidth;
            for (int x = 0; x < outputWidth; x++) {
                int p = rowStart + 3 * columns.first(x);
                float w = columns.weight(x, 0);
                float r = (src[p] & 0xff) * w;
                float g = (src[p + 1] & 0xff) * w;
                float b = (src[p + 2] & 0xff) * w;
                for (int j = 1, n = columns.count(x); j < n; j++) {
                    p += 3;
                    w = columns.weight(x, j);
                    r = Math.fma(src[p] & 0xff, w, r);
                    g = Math.fma(src[p + 1] & 0xff, w, g);
                    b = Math.fma(src[p + 2] & 0xff, w, b);
                }
                planes[outRow + x] = r;
                planes[plane + outRow + x] = g;
                planes[2 * plane + outRow + x] = b;
            }
        }
    }

    /**
     * {@code torch.round} (half to even) for 0 ≤ v < 2²²: in v + 2²³ the float's unit is 1, so the addition itself
     * rounds v to the nearest integer, ties to even, and subtracting 2²³ again is exact. Identical to
     * {@link Math#rint} on that range, and unlike it the loop using it vectorises. Non-negative weights summing to 1
     * keep every resized value within [0, 255] (up to rounding), so no clamping is needed.
     */
    static float roundHalfEven(float v) {
        return (v + 0x1p23f) - 0x1p23f;
    }

    /**
     * Height pass for output rows [from, to) of the stacked channel planes (row index c·outputHeight + y), each
     * rounded half-to-even. Weights are per output row, so the inner loops run along contiguous rows.
     */
    private void resizeColumns(float[] planes, int inputHeight, AntialiasedBilinearAxis rows, float[] out, int from,
            int to) {
        float[] acc = new float[outputWidth];
        for (int stackedRow = from; stackedRow < to; stackedRow++) {
            int c = stackedRow / outputHeight;
            int y = stackedRow % outputHeight;
            int src = (c * inputHeight + rows.first(y)) * outputWidth;
            float w = rows.weight(y, 0);
            for (int x = 0; x < outputWidth; x++) {
                acc[x] = planes[src + x] * w;
            }
            for (int j = 1, n = rows.count(y); j < n; j++) {
                src += outputWidth;
                w = rows.weight(y, j);
                for (int x = 0; x < outputWidth; x++) {
                    acc[x] = Math.fma(planes[src + x], w, acc[x]);
                }
            }
            int o = stackedRow * outputWidth;
            for (int x = 0; x < outputWidth; x++) {
                out[o + x] = roundHalfEven(acc[x]);
            }
        }
    }
}
