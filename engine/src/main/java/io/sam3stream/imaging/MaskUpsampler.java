package io.sam3stream.imaging;

/**
 * Brings mask logits from the segmentation head's grid (4G × 4G, 288 × 288 for the released model) to the original
 * image size and binarises them, as upstream {@code Sam3Processor._forward_grounding} does (docs/MODEL.md §11.3):
 * {@code F.interpolate(logits, (H, W), mode="bilinear", align_corners=False)}, then {@code sigmoid > 0.5}, which is
 * {@code logit > 0}.
 *
 * <p>Taps and weights are PyTorch's ({@link BilinearAxis}) and each output is evaluated in the order of its generic
 * bilinear kernel, {@code (x₀₀·w₀ + x₀₁·w₁)·h₀ + (x₁₀·w₀ + x₁₁·w₁)·h₁}: the width interpolation of a source row is
 * computed once and shared by every output row that reads it. PyTorch builds differ from one another in the last
 * bit of this arithmetic (fused multiply-adds; a channels-last variant that sums the four products instead), so
 * results agree with upstream to rounding, and a binary pixel can only differ where the logit is within rounding
 * of 0.
 *
 * <p>One instance serves every mask of one image size; it is immutable and thread-safe.
 */
public final class MaskUpsampler {

    private final int sourceHeight;
    private final int sourceWidth;
    private final BilinearAxis rows;
    private final BilinearAxis columns;

    private MaskUpsampler(int sourceHeight, int sourceWidth, int targetHeight, int targetWidth) {
        this.sourceHeight = sourceHeight;
        this.sourceWidth = sourceWidth;
        this.rows = BilinearAxis.of(sourceHeight, targetHeight);
        this.columns = BilinearAxis.of(sourceWidth, targetWidth);
    }

    /** An upsampler from {@code sourceHeight × sourceWidth} logits to {@code targetHeight × targetWidth} masks. */
    public static MaskUpsampler of(int sourceHeight, int sourceWidth, int targetHeight, int targetWidth) {
        if (sourceHeight < 1 || sourceWidth < 1 || targetHeight < 1 || targetWidth < 1) {
            throw new IllegalArgumentException("sizes must be positive: " + sourceHeight + "x" + sourceWidth + " -> "
                    + targetHeight + "x" + targetWidth);
        }
        return new MaskUpsampler(sourceHeight, sourceWidth, targetHeight, targetWidth);
    }

    public int targetHeight() {
        return rows.size();
    }

    public int targetWidth() {
        return columns.size();
    }

    /**
     * The binary mask {@code upsampled logit > 0} of one instance.
     *
     * @param logits holds the instance's row-major source grid
     * @param offset index of the grid's first value in {@code logits}
     */
    public BinaryMask toBinaryMask(float[] logits, int offset) {
        byte[] mask = new byte[targetHeight() * targetWidth()];
        long[] area = new long[1];
        interpolate(logits, offset, (y, row) -> {
            int o = y * row.length;
            int ones = 0;
            for (int x = 0; x < row.length; x++) {
                byte inside = row[x] > 0.0f ? (byte) 1 : (byte) 0;
                mask[o + x] = inside;
                ones += inside;
            }
            area[0] += ones;
        });
        return new BinaryMask(targetWidth(), targetHeight(), mask, area[0]);
    }

    /** The upsampled logits of one instance, row-major {@code targetHeight × targetWidth}. */
    public float[] upsampleLogits(float[] logits, int offset) {
        float[] out = new float[targetHeight() * targetWidth()];
        interpolate(logits, offset, (y, row) -> System.arraycopy(row, 0, out, y * row.length, row.length));
        return out;
    }

    /** Receives each output row in turn; the array is reused for the next row. */
    @FunctionalInterface
    private interface RowSink {
        void accept(int y, float[] row);
    }

    private void interpolate(float[] logits, int offset, RowSink sink) {
        if (offset < 0 || offset + sourceHeight * sourceWidth > logits.length) {
            throw new IllegalArgumentException("a " + sourceHeight + "x" + sourceWidth + " grid at offset " + offset
                    + " does not fit in " + logits.length + " logits");
        }
        int width = targetWidth();
        // width-interpolated source rows, cached by source row: output rows read non-decreasing source rows
        float[] upper = new float[width];
        float[] lower = new float[width];
        int upperRow = -1;
        int lowerRow = -1;
        float[] out = new float[width];
        for (int y = 0; y < targetHeight(); y++) {
            int r0 = rows.index0(y);
            int r1 = rows.index1(y);
            if (r0 != upperRow) {
                if (r0 == lowerRow) {
                    float[] swap = upper;
                    upper = lower;
                    lower = swap;
                    lowerRow = -1;
                } else {
                    interpolateRow(logits, offset + r0 * sourceWidth, upper);
                }
                upperRow = r0;
            }
            if (r1 != lowerRow) {
                interpolateRow(logits, offset + r1 * sourceWidth, lower);
                lowerRow = r1;
            }
            float h0 = rows.lambda0(y);
            float h1 = rows.lambda1(y);
            for (int x = 0; x < width; x++) {
                out[x] = upper[x] * h0 + lower[x] * h1;
            }
            sink.accept(y, out);
        }
    }

    private void interpolateRow(float[] logits, int rowStart, float[] into) {
        for (int x = 0; x < into.length; x++) {
            into[x] = logits[rowStart + columns.index0(x)] * columns.lambda0(x)
                    + logits[rowStart + columns.index1(x)] * columns.lambda1(x);
        }
    }
}
