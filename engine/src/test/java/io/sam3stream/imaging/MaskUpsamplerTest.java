package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Bilinear upsampling with PyTorch's align_corners=False geometry, on grids small enough to work out by hand. */
class MaskUpsamplerTest {

    @Test
    void twoByTwoToFourByFourFollowsHalfPixelCentres() {
        // scale 0.5: output i samples source position max(0, 0.5·(i + 0.5) − 0.5) = 0, 0.25, 0.75, 1.25, and
        // the tap after the last source pixel is the last pixel again, so each axis weighs (x0, x1) as
        // (1, 0), (0.75, 0.25), (0.25, 0.75), (0, 1)
        float[] grid = {0, 1, 2, 3};

        float[] up = MaskUpsampler.of(2, 2, 4, 4).upsampleLogits(grid, 0);

        assertArrayEquals(new float[] {
            0.0f, 0.25f, 0.75f, 1.0f,
            0.5f, 0.75f, 1.25f, 1.5f,
            1.5f, 1.75f, 2.25f, 2.5f,
            2.0f, 2.25f, 2.75f, 3.0f}, up);
    }

    @Test
    void binaryMaskIsLogitAboveZeroAndCountsItsArea() {
        // rows interpolate -1 → 3 across the width: 4 columns at −1, 0, 2, 3; zero itself is outside
        float[] grid = {-1, 3, -1, 3};

        BinaryMask mask = MaskUpsampler.of(2, 2, 3, 4).toBinaryMask(grid, 0);

        assertArrayEquals(new byte[] {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}, mask.pixels());
        assertEquals(6, mask.area());
    }

    @Test
    void sameSizeCopiesAndOffsetSelectsTheInstance() {
        float[] twoInstances = {9, 9, 9, 9, 1, -2, 3, -4};

        assertArrayEquals(new float[] {1, -2, 3, -4}, MaskUpsampler.of(2, 2, 2, 2).upsampleLogits(twoInstances, 4));
    }

    @Test
    void gridOutsideTheArrayIsRefused() {
        MaskUpsampler upsampler = MaskUpsampler.of(2, 2, 4, 4);

        assertThrows(IllegalArgumentException.class, () -> upsampler.upsampleLogits(new float[7], 4));
    }
}
