package io.sam3stream.engine;

import io.sam3stream.imaging.ImageRejectedException;

/** The request checks of the reference server, with its error classes (400 for content, 422 for ranges). */
final class RequestValidation {

    private RequestValidation() {}

    /** Checks everything that does not need the decoded image. */
    static void check(SegmentRequest r, int maxPrompts) {
        if (r.image() == null || r.image().length == 0) {
            throw new RequestRejectedException(ErrorCode.BAD_IMAGE, "image is empty");
        }
        if (r.prompts().isEmpty()) {
            throw new RequestRejectedException(ErrorCode.EMPTY_PROMPT, "at least one prompt is required");
        }
        if (r.prompts().size() > maxPrompts) {
            throw new RequestRejectedException(ErrorCode.TOO_MANY_PROMPTS,
                    r.prompts().size() + " prompts; at most " + maxPrompts + " are allowed (SAM3_MAX_PROMPTS)");
        }
        for (int i = 0; i < r.prompts().size(); i++) {
            String text = r.prompts().get(i).text();
            if (text == null || text.isBlank()) {
                throw new RequestRejectedException(ErrorCode.EMPTY_PROMPT, "prompt " + i + " is empty");
            }
            if (text.length() > SegmentRequest.MAX_PROMPT_CHARS) {
                throw new RequestRejectedException(ErrorCode.INVALID_FIELD, "prompt " + i + " has " + text.length()
                        + " characters; at most " + SegmentRequest.MAX_PROMPT_CHARS + " are allowed");
            }
        }
        if (!(r.threshold() >= 0 && r.threshold() <= 1)) {
            throw new RequestRejectedException(ErrorCode.INVALID_FIELD,
                    "threshold must lie in [0, 1], got " + r.threshold());
        }
        if (r.maxInstances() < 1 || r.maxInstances() > SegmentRequest.MAX_INSTANCES_LIMIT) {
            throw new RequestRejectedException(ErrorCode.INVALID_FIELD,
                    "max_instances must lie in [1, " + SegmentRequest.MAX_INSTANCES_LIMIT + "], got "
                            + r.maxInstances());
        }
        if (r.maskFormat() == null) {
            throw new RequestRejectedException(ErrorCode.INVALID_FIELD, "mask_format is missing");
        }
    }

    /** Exemplar boxes must be finite, non-empty and overlap the image. */
    static void checkBoxes(SegmentRequest r, int width, int height) {
        for (PromptSpec prompt : r.prompts()) {
            for (BoxExemplar b : prompt.boxes()) {
                boolean finite = Float.isFinite(b.x0()) && Float.isFinite(b.y0()) && Float.isFinite(b.x1())
                        && Float.isFinite(b.y1());
                if (!finite || b.x1() <= b.x0() || b.y1() <= b.y0()) {
                    throw new RequestRejectedException(ErrorCode.INVALID_FIELD,
                            "exemplar box of prompt '" + prompt.text() + "' must have x1 > x0 and y1 > y0");
                }
                if (b.x1() <= 0 || b.y1() <= 0 || b.x0() >= width || b.y0() >= height) {
                    throw new RequestRejectedException(ErrorCode.INVALID_FIELD,
                            "exemplar box of prompt '" + prompt.text() + "' lies outside the " + width + "x"
                                    + height + " image");
                }
            }
        }
    }

    /** The error class of a refused image: too large is its own class, everything else is a bad image. */
    static ErrorCode codeOf(ImageRejectedException e) {
        return switch (e.reason()) {
            case SIDE_TOO_LARGE, TOO_MANY_PIXELS -> ErrorCode.IMAGE_TOO_LARGE;
            default -> ErrorCode.BAD_IMAGE;
        };
    }
}
