package io.sam3stream.model.prompt;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * RoIAlign with the semantics of {@code torchvision.ops.roi_align(input, boxes, output_size, spatial_scale=1,
 * sampling_ratio=-1, aligned=False)} on one feature map, as upstream's geometry encoder pools box prompts.
 *
 * <p>Each output bin averages a grid of ⌈roi_side / output_size⌉ bilinear samples per axis taken at the centres of
 * equal sub-cells; boxes are not shifted by half a pixel (aligned=False) and are at least 1×1 pixel. A sample more
 * than one pixel outside the map contributes zero but still counts in the average; coordinates in (−1, 0] clamp to
 * 0 and the last row/column is repeated at the far edge. These are torchvision's CPU kernel rules, evaluated in
 * float32 like it.
 *
 * <p>Because every output value is a fixed linear combination of map pixels, the pooling is computed as one
 * product of a (boxes·bins, H·W) weight matrix with the (H·W, C) pixels.
 */
final class RoiAlign {

    private RoiAlign() {}

    /**
     * @param map        (C, H, W) feature map
     * @param corners    boxes as (x0, y0, x1, y1) in map pixel units, one array of 4 per box
     * @param outputSize bins per side
     * @return (boxes, C, outputSize, outputSize) in the map's manager
     */
    static NDArray align(NDArray map, float[][] corners, int outputSize) {
        Shape s = map.getShape();
        int channels = Math.toIntExact(s.get(0));
        int height = Math.toIntExact(s.get(1));
        int width = Math.toIntExact(s.get(2));
        int bins = outputSize * outputSize;
        int pixels = height * width;
        float[] weights = new float[corners.length * bins * pixels];
        for (int r = 0; r < corners.length; r++) {
            addSamplingWeights(corners[r], height, width, outputSize, weights, r * bins * pixels);
        }
        try (NDArray sampling = map.getManager().create(weights, new Shape((long) corners.length * bins, pixels));
                NDArray flat = map.reshape(channels, pixels);
                NDArray pixelRows = flat.transpose(1, 0);
                NDArray pooled = sampling.matMul(pixelRows);
                NDArray binsLast = pooled.reshape(corners.length, outputSize, outputSize, channels)) {
            return binsLast.transpose(0, 3, 1, 2);
        }
    }

    /**
     * Writes the (bins, H·W) weights of one box at {@code offset}: the bilinear weights of every sample of a bin,
     * summed per pixel and divided by the number of samples.
     */
    private static void addSamplingWeights(float[] box, int height, int width, int outputSize, float[] weights,
            int offset) {
        float startX = box[0];
        float startY = box[1];
        float roiWidth = Math.max(box[2] - startX, 1f);
        float roiHeight = Math.max(box[3] - startY, 1f);
        float binHeight = roiHeight / outputSize;
        float binWidth = roiWidth / outputSize;
        int gridH = (int) Math.ceil(roiHeight / outputSize);
        int gridW = (int) Math.ceil(roiWidth / outputSize);
        float count = Math.max(gridH * gridW, 1);
        int pixels = height * width;
        for (int ph = 0; ph < outputSize; ph++) {
            for (int pw = 0; pw < outputSize; pw++) {
                int row = offset + (ph * outputSize + pw) * pixels;
                for (int iy = 0; iy < gridH; iy++) {
                    float y = startY + ph * binHeight + (iy + .5f) * binHeight / gridH;
                    for (int ix = 0; ix < gridW; ix++) {
                        float x = startX + pw * binWidth + (ix + .5f) * binWidth / gridW;
                        addBilinear(y, x, height, width, weights, row);
                    }
                }
                for (int i = row; i < row + pixels; i++) {
                    weights[i] /= count;
                }
            }
        }
    }

    private static void addBilinear(float y, float x, int height, int width, float[] weights, int row) {
        // written as "not inside" so that NaN coordinates are skipped as well
        if (!(y >= -1f && y <= height && x >= -1f && x <= width)) {
            return;
        }
        y = Math.max(y, 0f);
        x = Math.max(x, 0f);
        int yLow = (int) y;
        int xLow = (int) x;
        int yHigh;
        int xHigh;
        if (yLow >= height - 1) {
            yHigh = yLow = height - 1;
            y = yLow;
        } else {
            yHigh = yLow + 1;
        }
        if (xLow >= width - 1) {
            xHigh = xLow = width - 1;
            x = xLow;
        } else {
            xHigh = xLow + 1;
        }
        float ly = y - yLow;
        float lx = x - xLow;
        float hy = 1f - ly;
        float hx = 1f - lx;
        weights[row + yLow * width + xLow] += hy * hx;
        weights[row + yLow * width + xHigh] += hy * lx;
        weights[row + yHigh * width + xLow] += ly * hx;
        weights[row + yHigh * width + xHigh] += ly * lx;
    }
}
