package io.sam3stream.model.prompt;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.fusion.ImageTokens;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.RawTensor;
import java.util.Arrays;
import java.util.List;

/** The golden cases' prompt inputs and image features, as the prompt-side modules take them. */
public final class GoldenPromptInputs {

    /** Every golden case: three text prompts and one text prompt with a box. */
    public static final List<String> CASES = List.of("p0", "p1", "p2", "b0");

    private GoldenPromptInputs() {}

    /** (cases, 32) int64 token ids of the given cases, in order. */
    public static NDArray tokenIds(NDManager manager, String... cases) {
        long[][] rows = Arrays.stream(cases)
                .map(c -> TinyGolden.inputs().get(c + ".token_ids").toLongs())
                .toArray(long[][]::new);
        long[] flat = Arrays.stream(rows).flatMapToLong(Arrays::stream).toArray();
        return manager.create(flat, new Shape(cases.length, rows[0].length));
    }

    /** The boxes of a case ({@code b*} cases have {@code boxes_cxcywh} and {@code box_labels}), or none. */
    public static GeometryPrompt geometry(String goldenCase) {
        String boxesName = goldenCase + ".boxes_cxcywh";
        if (!TinyGolden.inputs().names().contains(boxesName)) {
            return GeometryPrompt.NONE;
        }
        float[] boxes = TinyGolden.inputs().get(boxesName).toFloats();
        float[] labels = TinyGolden.inputs().get(goldenCase + ".box_labels").toFloats();
        ExemplarBox[] exemplars = new ExemplarBox[labels.length];
        for (int i = 0; i < labels.length; i++) {
            exemplars[i] = new ExemplarBox(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3],
                    labels[i] != 0);
        }
        return GeometryPrompt.of(exemplars);
    }

    /** The geometry prompts of the given cases, in order. */
    public static List<GeometryPrompt> geometries(String... cases) {
        return Arrays.stream(cases).map(GoldenPromptInputs::geometry).toList();
    }

    /** The neck's 1× level ({@code neck.fpn2}) with its sine positions ({@code neck.pos2}), flattened. */
    public static ImageTokens imageLevel(NDManager manager) {
        try (NDArray features = array(manager, "neck.fpn2");
                NDArray pos = array(manager, "neck.pos2")) {
            return ImageTokens.flatten(features, pos);
        }
    }

    private static NDArray array(NDManager manager, String stage) {
        RawTensor t = TinyGolden.outputs().get(stage);
        return manager.create(t.toFloats(), new Shape(t.shape()));
    }
}
