package io.sam3stream.imaging;

/**
 * Turns a decoded image into the model input exactly as upstream {@code Sam3Processor.transform} does
 * (docs/MODEL.md §2.2): {@code v2.Resize((S, S))} squashing to a square (aspect ratio not kept, no padding) with
 * antialiased bilinear interpolation computed in float32 and rounded back to uint8
 * ({@link AntialiasedBilinearResize}), then {@code ToDtype(float32, scale=True)} ({@code x · float32(1/255)}) and
 * {@code Normalize(mean=0.5, std=0.5)} ({@code (x − 0.5) / 0.5}), giving float32 in [−1, 1], channel-major.
 * Instances are immutable and thread-safe; large images are resized on the common fork-join pool.
 */
public final class ModelInputPreprocessor {

    /** Input side of the released SAM3 image model. */
    public static final int SAM3_INPUT_SIZE = 1008;

    private static final float INV_255 = (float) (1.0 / 255);
    private static final float MEAN = 0.5f;
    private static final float STD = 0.5f;

    private final AntialiasedBilinearResize resize;
    private final int size;

    /** @param size the square side S of the model input ({@link #SAM3_INPUT_SIZE} for the released model) */
    public ModelInputPreprocessor(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("input size must be positive: " + size);
        }
        this.size = size;
        this.resize = new AntialiasedBilinearResize(size, size);
    }

    public int size() {
        return size;
    }

    /** The resized image before normalisation: uint8, 3 × S × S, channel-major (upstream's uint8 CHW tensor). */
    public byte[] resizeToUint8Chw(RgbImage image) {
        float[] levels = resize.resizeToChw(image);
        byte[] out = new byte[levels.length];
        for (int i = 0; i < levels.length; i++) {
            out[i] = (byte) (int) levels[i];
        }
        return out;
    }

    /** The model input: float32, 3 × S × S, channel-major, values in [−1, 1]. */
    public float[] preprocess(RgbImage image) {
        float[] input = resize.resizeToChw(image); // uint8 levels, exact in float32
        for (int i = 0; i < input.length; i++) {
            input[i] = (input[i] * INV_255 - MEAN) / STD;
        }
        return input;
    }
}
