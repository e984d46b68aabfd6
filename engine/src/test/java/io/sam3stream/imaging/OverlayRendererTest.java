package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The overlay blends each mask in its own colour, outlines it, boxes and labels it, and leaves the rest alone. */
class OverlayRendererTest {

    private static final int WIDTH = 120;
    private static final int HEIGHT = 90;
    private static final int GREY = 100;
    /** The first two palette colours. */
    private static final int BLUE = 0x1f77b4;
    private static final int ORANGE = 0xff7f0e;

    private static RgbImage grey() {
        byte[] pixels = new byte[WIDTH * HEIGHT * 3];
        Arrays.fill(pixels, (byte) GREY);
        return new RgbImage(WIDTH, HEIGHT, pixels);
    }

    /** A mask filling the rectangle [x0, x1) × [y0, y1). */
    private static BinaryMask rectangle(int x0, int y0, int x1, int y1) {
        byte[] pixels = new byte[WIDTH * HEIGHT];
        for (int y = y0; y < y1; y++) {
            Arrays.fill(pixels, y * WIDTH + x0, y * WIDTH + x1, (byte) 1);
        }
        return new BinaryMask(WIDTH, HEIGHT, pixels);
    }

    private static int rgbAt(RgbImage image, int x, int y) {
        return image.sample(x, y, 0) << 16 | image.sample(x, y, 1) << 8 | image.sample(x, y, 2);
    }

    /** Half image, half colour, per channel. */
    private static int blend(int colour) {
        int g = GREY >> 1;
        return (((colour >> 17) & 0x7f) + g) << 16 | (((colour >> 9) & 0x7f) + g) << 8 | ((colour >> 1) & 0x7f) + g;
    }

    @Test
    void masksAreBlendedAndOutlinedInDistinctColours() {
        List<OverlayInstance> instances = List.of(
                new OverlayInstance(rectangle(10, 40, 30, 60), new float[] {10, 40, 30, 60}, 0.9f, "a"),
                new OverlayInstance(rectangle(60, 40, 90, 70), new float[] {60, 40, 90, 70}, 0.7f, "b"));

        RgbImage overlay = OverlayRenderer.render(grey(), instances);

        assertEquals(blend(BLUE), rgbAt(overlay, 20, 50), "inside the first mask");
        assertEquals(blend(ORANGE), rgbAt(overlay, 75, 55), "inside the second mask");
        assertEquals(ORANGE, rgbAt(overlay, 61, 69), "on the second mask's outline");
        assertEquals(GREY << 16 | GREY << 8 | GREY, rgbAt(overlay, 45, 80), "away from every instance");
        assertNotEquals(GREY << 16 | GREY << 8 | GREY, rgbAt(overlay, 12, 35), "in the first label, above its box");
    }

    @Test
    void boxIsDrawnWithoutAMask() {
        RgbImage overlay = OverlayRenderer.render(grey(),
                List.of(new OverlayInstance(null, new float[] {20, 30, 100, 80}, 0.5f, "box only")));

        assertNotEquals(GREY << 16 | GREY << 8 | GREY, rgbAt(overlay, 60, 80), "on the box's bottom edge");
        assertEquals(GREY << 16 | GREY << 8 | GREY, rgbAt(overlay, 60, 55), "inside the box");
    }

    @Test
    void pngIsTheRenderedImage() {
        List<OverlayInstance> instances =
                List.of(new OverlayInstance(rectangle(5, 5, 50, 50), new float[] {5, 5, 50, 50}, 0.8f, "x"));

        byte[] png = OverlayRenderer.renderPng(grey(), instances);

        assertArrayEquals(OverlayRenderer.render(grey(), instances).pixels(),
                new ImageDecoder(ImageLimits.DEFAULT).decode(png).pixels());
    }

    @Test
    void maskOfAnotherSizeIsRefused() {
        BinaryMask small = new BinaryMask(2, 2, new byte[4]);
        List<OverlayInstance> instances = List.of(new OverlayInstance(small, new float[] {0, 0, 1, 1}, 0.5f, "x"));

        assertThrows(IllegalArgumentException.class, () -> OverlayRenderer.render(grey(), instances));
    }

    @Test
    void goldenInstancesPaintExactlyTheirMaskPixels() {
        RgbImage image = new RgbImage(200, 150, hwc());
        boolean[] masks = TinyGolden.outputs().get("p0.post_t050.masks").toBooleans();
        float[] boxes = TinyGolden.outputs().get("p0.post_t050.boxes_xyxy_px").toFloats();
        float[] scores = TinyGolden.outputs().get("p0.post_t050.scores").toFloats();
        int plane = 200 * 150;
        List<OverlayInstance> instances = new ArrayList<>();
        boolean[] covered = new boolean[plane];
        for (int k = 0; k < scores.length; k++) {
            byte[] pixels = new byte[plane];
            for (int i = 0; i < plane; i++) {
                pixels[i] = (byte) (masks[k * plane + i] ? 1 : 0);
                covered[i] |= masks[k * plane + i];
            }
            instances.add(new OverlayInstance(new BinaryMask(200, 150, pixels),
                    Arrays.copyOfRange(boxes, 4 * k, 4 * k + 4), scores[k], "cat"));
        }

        RgbImage overlay = OverlayRenderer.render(image, instances);

        // away from box edges and labels, a pixel changes exactly when a mask covers it
        int checked = 0;
        for (int y = 0; y < 150; y++) {
            for (int x = 0; x < 200; x++) {
                if (nearABoxEdgeOrLabel(boxes, x, y)) {
                    continue;
                }
                int i = y * 200 + x;
                boolean changed = rgbAt(overlay, x, y) != rgbAt(image, x, y);
                assertEquals(covered[i], changed, "pixel " + x + "," + y);
                checked++;
            }
        }
        assertTrue(checked > 10_000, "checked " + checked);
    }

    private static byte[] hwc() {
        byte[] pixels = new byte[200 * 150 * 3];
        TinyGolden.inputs().get("image.uint8_hwc").data().get(pixels);
        return pixels;
    }

    /** Within 4 px of a box edge, or in the band above/below a box's top edge where its label goes. */
    private static boolean nearABoxEdgeOrLabel(float[] boxes, int x, int y) {
        for (int k = 0; k < boxes.length; k += 4) {
            float x0 = boxes[k];
            float y0 = boxes[k + 1];
            if (x >= x0 - 4 && x < x0 + 100 && y >= y0 - 20 && y < Math.max(y0, 0) + 20) {
                return true;
            }
            for (int e = 0; e < 4; e++) {
                int coordinate = e % 2 == 0 ? x : y;
                if (Math.abs(coordinate - boxes[k + e]) < 4) {
                    return true;
                }
            }
        }
        return false;
    }
}
