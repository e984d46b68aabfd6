package io.sam3stream.model.prompt;

import java.util.List;

/**
 * The geometric part of one prompt: its exemplar boxes, in the order given. A text-only prompt has none; it still
 * goes through the geometry encoder, which then contributes only its CLS token.
 *
 * @param boxes the exemplar boxes
 */
public record GeometryPrompt(List<ExemplarBox> boxes) {

    /** A prompt with no boxes. */
    public static final GeometryPrompt NONE = new GeometryPrompt(List.of());

    public GeometryPrompt {
        boxes = List.copyOf(boxes);
    }

    /** A prompt with these boxes. */
    public static GeometryPrompt of(ExemplarBox... boxes) {
        return new GeometryPrompt(List.of(boxes));
    }
}
