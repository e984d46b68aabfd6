package io.sam3stream.engine;

import java.util.List;

/**
 * One concept query: a noun phrase, optionally with exemplar boxes showing (or ruling out) instances.
 *
 * @param text  the noun phrase; must not be blank
 * @param boxes exemplar boxes in pixels of the original image (may be empty)
 */
public record PromptSpec(String text, List<BoxExemplar> boxes) {

    public PromptSpec {
        boxes = List.copyOf(boxes);
    }

    /** A text-only prompt. */
    public static PromptSpec text(String text) {
        return new PromptSpec(text, List.of());
    }
}
