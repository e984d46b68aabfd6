package io.sam3stream.imaging;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.util.List;
import java.util.Locale;

/**
 * Draws instances over their image for people to look at: each instance gets a distinct colour, its mask is blended
 * in at half opacity with a solid outline, its box is stroked and labelled with prompt and score. Not part of any
 * numeric contract.
 */
public final class OverlayRenderer {

    /** Distinct, saturated colours (Tableau 10), cycled when there are more instances. */
    private static final int[] PALETTE = {
        0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf
    };

    private OverlayRenderer() {}

    /** The overlay as an RGB PNG file. */
    public static byte[] renderPng(RgbImage image, List<OverlayInstance> instances) {
        return PngEncoder.encodeRgb(render(image, instances));
    }

    /** The overlay as an image of the same size. */
    public static RgbImage render(RgbImage image, List<OverlayInstance> instances) {
        int width = image.width();
        int height = image.height();
        BufferedImage canvas = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int[] argb = ((DataBufferInt) canvas.getRaster().getDataBuffer()).getData();
        byte[] rgb = image.pixels();
        for (int i = 0; i < argb.length; i++) {
            argb[i] = (rgb[3 * i] & 0xff) << 16 | (rgb[3 * i + 1] & 0xff) << 8 | (rgb[3 * i + 2] & 0xff);
        }
        for (int k = 0; k < instances.size(); k++) {
            BinaryMask mask = instances.get(k).mask();
            if (mask != null) {
                if (mask.width() != width || mask.height() != height) {
                    throw new IllegalArgumentException("mask " + k + " is " + mask.width() + "x" + mask.height()
                            + ", the image " + width + "x" + height);
                }
                paintMask(argb, mask, colour(k));
            }
        }
        Graphics2D g = canvas.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            int shortSide = Math.min(width, height);
            g.setStroke(new BasicStroke(Math.max(2f, shortSide / 300f)));
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.max(11, shortSide / 40)));
            for (int k = 0; k < instances.size(); k++) {
                drawBoxAndLabel(g, instances.get(k), new Color(colour(k)), width);
            }
        } finally {
            g.dispose();
        }
        byte[] out = new byte[width * height * 3];
        for (int i = 0; i < argb.length; i++) {
            out[3 * i] = (byte) (argb[i] >> 16);
            out[3 * i + 1] = (byte) (argb[i] >> 8);
            out[3 * i + 2] = (byte) argb[i];
        }
        return new RgbImage(width, height, out);
    }

    private static int colour(int instance) {
        return PALETTE[instance % PALETTE.length];
    }

    /** Mask pixels become the mean of image and colour; pixels on the mask's border take the colour itself. */
    private static void paintMask(int[] argb, BinaryMask mask, int colour) {
        int width = mask.width();
        int height = mask.height();
        byte[] m = mask.pixels();
        int half = (colour >> 1) & 0x7f7f7f;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int i = y * width + x;
                if (m[i] == 0) {
                    continue;
                }
                boolean border = x == 0 || y == 0 || x == width - 1 || y == height - 1
                        || m[i - 1] == 0 || m[i + 1] == 0 || m[i - width] == 0 || m[i + width] == 0;
                argb[i] = border ? colour : ((argb[i] >> 1) & 0x7f7f7f) + half;
            }
        }
    }

    private static void drawBoxAndLabel(Graphics2D g, OverlayInstance instance, Color colour, int imageWidth) {
        float[] box = instance.boxXyxy();
        int x0 = Math.round(box[0]);
        int y0 = Math.round(box[1]);
        int x1 = Math.round(box[2]);
        int y1 = Math.round(box[3]);
        g.setColor(colour);
        g.drawRect(x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0));

        String text = String.format(Locale.ROOT, "%s %.2f", instance.label(), instance.score());
        FontMetrics metrics = g.getFontMetrics();
        int textWidth = metrics.stringWidth(text) + 6;
        int textHeight = metrics.getHeight();
        int left = Math.max(0, Math.min(x0, imageWidth - textWidth));
        // above the box when there is room, else just inside its top edge
        int top = y0 - textHeight >= 0 ? y0 - textHeight : Math.max(0, y0);
        g.fillRect(left, top, textWidth, textHeight);
        g.setColor(isLight(colour) ? Color.BLACK : Color.WHITE);
        g.drawString(text, left + 3, top + metrics.getAscent());
    }

    private static boolean isLight(Color c) {
        return 0.299 * c.getRed() + 0.587 * c.getGreen() + 0.114 * c.getBlue() > 150;
    }
}
