package io.sam3stream.engine;


/** The request checks of the reference server, with its error classes (400 for content, 422 for ranges). */
final class RequestValidation {

    private RequestValidation() {}

    /** Checks everything that does not need the decoded image. */
    static void check(SegmentRequest r, int maxPrompts) {
        if (r.image() == null || r.image().length == 0) {
            throw new RequestRejectedException(ErrorCode.BAD_REQUEST, "image is empty");
        }
        if (r.prompts().isEmpty()) {
            throw new RequestRejectedException(ErrorCode.BAD_REQUEST, "at least one prompt is required");
        }
        if (r.prompts().size() > maxPrompts) {
            throw new RequestRejectedException(ErrorCode.BAD_REQUEST,
                    r.prompts().size() + " prompts; at most " + maxPrompts + " are allowed (SAM3_MAX_PROMPTS)");
        }
        for (int i = 0; i < r.prompts().size(); i++) {
            String text = r.prompts().get(i).text();
            if (text == null || text.isBlank()) {
                throw new RequestRejectedException(ErrorCode.BAD_REQUEST, "prompt " + i + " is empty");
            }
            if (text.length() > SegmentRequest.MAX_PROMPT_CHARS) {
                throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY, "prompt " + i + " has " + text.length()
                        + " characters; at most " + SegmentRequest.MAX_PROMPT_CHARS + " are allowed");
            }
        }
        if (!(r.threshold() >= 0 && r.threshold() <= 1)) {
            throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY,
                    "threshold must lie in [0, 1], got " + r.threshold());
        }
        if (r.maxInstances() < 1 || r.maxInstances() > SegmentRequest.MAX_INSTANCES_LIMIT) {
            throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY,
                    "max_instances must lie in [1, " + SegmentRequest.MAX_INSTANCES_LIMIT + "], got "
                            + r.maxInstances());
        }
        if (r.maskFormat() == null) {
            throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY, "mask_format is missing");
        }
    }

    /** Exemplar boxes must be finite, non-empty and overlap the image. */
    static void checkBoxes(SegmentRequest r, int width, int height) {
        for (PromptSpec prompt : r.prompts()) {
            for (BoxExemplar b : prompt.boxes()) {
                boolean finite = Float.isFinite(b.x0()) && Float.isFinite(b.y0()) && Float.isFinite(b.x1())
                        && Float.isFinite(b.y1());
                if (!finite || b.x1() <= b.x0() || b.y1() <= b.y0()) {
                    throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY,
                            "exemplar box of prompt '" + prompt.text() + "' must have x1 > x0 and y1 > y0");
                }
                if (b.x1() <= 0 || b.y1() <= 0 || b.x0() >= width || b.y0() >= height) {
                    throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY,
                            "exemplar box of prompt '" + prompt.text() + "' lies outside the " + width + "x"
                                    + height + " image");
                }
            }
        }
    }
}
