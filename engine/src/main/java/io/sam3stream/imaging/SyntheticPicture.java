package io.sam3stream.imaging;

import io.sam3stream.imaging.PngEncoder;
import io.sam3stream.imaging.RgbImage;
import java.util.Random;

/**
 * Deterministic photo-like RGB pictures for benchmarks: smooth colour gradients, a few bright ellipses and ±12 grey
 * levels of noise, so that a PNG of one compresses about as badly as a camera picture does (the noise dominates).
 */
public final class SyntheticPicture {

    private SyntheticPicture() {}

    /**
     * @param variant changes one pixel, so that pictures of different variants have different pixel digests (the
     *                engine caches image features by digest) and otherwise cost the same
     */
    public static RgbImage of(int width, int height, int variant) {
        Random random = new Random(7);
        byte[] pixels = new byte[width * height * 3];
        double[][] blobs = new double[6][];
        for (int i = 0; i < blobs.length; i++) {
            blobs[i] = new double[] {random.nextDouble() * width, random.nextDouble() * height,
                0.05 + random.nextDouble() * 0.2, random.nextInt(3)};
        }
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                double u = (double) x / width;
                double v = (double) y / height;
                double[] rgb = {255 * u, 255 * v, 128 + 100 * Math.sin(8 * u + 5 * v)};
                for (double[] b : blobs) {
                    double dx = (x - b[0]) / width;
                    double dy = (y - b[1]) / height;
                    if (dx * dx + 2 * dy * dy < b[2] * b[2]) {
                        rgb[(int) b[3]] = 240;
                    }
                }
                int at = (y * width + x) * 3;
                for (int c = 0; c < 3; c++) {
                    pixels[at + c] = (byte) Math.max(0, Math.min(255, (int) rgb[c] + random.nextInt(25) - 12));
                }
            }
        }
        pixels[0] = (byte) variant;
        return new RgbImage(width, height, pixels);
    }

    /** The picture as a PNG (8-bit RGB). */
    public static byte[] png(int width, int height, int variant) {
        return PngEncoder.encodeRgb(of(width, height, variant));
    }
}
