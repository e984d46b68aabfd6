package io.sam3stream.model.prompt;

/**
 * The sine encoding of a box that feeds {@code boxes_pos_enc_project} (upstream
 * {@code PositionEmbeddingSine.encode_boxes}, {@code sam3/model/position_encoding.py}):
 * [enc(cy) | enc(cx) | h | w], where enc(p) has {@code numPosFeats} channels, channel k being
 * sin(2π·p / t_k) for even k and cos(2π·p / t_k) for odd k, with t_k = 10000^(2⌊k/2⌋ / numPosFeats).
 * The y encoding comes before the x encoding and the height before the width, as upstream lays them out.
 * Computed in float32 like upstream.
 */
final class BoxSineEncoding {

    private static final float TEMPERATURE = 10000f;
    private static final float SCALE = (float) (2 * Math.PI);

    private BoxSineEncoding() {}

    /**
     * @param box         the box to encode
     * @param numPosFeats channels per coordinate (d_model / 2)
     * @return 2·numPosFeats + 2 values
     */
    static float[] encode(ExemplarBox box, int numPosFeats) {
        float[] out = new float[2 * numPosFeats + 2];
        encodeCoordinate(box.cy(), numPosFeats, out, 0);
        encodeCoordinate(box.cx(), numPosFeats, out, numPosFeats);
        out[2 * numPosFeats] = box.height();
        out[2 * numPosFeats + 1] = box.width();
        return out;
    }

    private static void encodeCoordinate(float p, int numPosFeats, float[] out, int offset) {
        float scaled = p * SCALE;
        for (int k = 0; k < numPosFeats; k++) {
            float exponent = (float) (2 * (k / 2)) / numPosFeats;
            float period = (float) Math.pow(TEMPERATURE, exponent);
            float angle = scaled / period;
            out[offset + k] = (float) (k % 2 == 0 ? Math.sin(angle) : Math.cos(angle));
        }
    }
}
