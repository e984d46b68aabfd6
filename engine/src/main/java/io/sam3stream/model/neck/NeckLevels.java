package io.sam3stream.model.neck;

import java.util.Arrays;
import java.util.List;

/** Which neck levels to build and compute. */
public enum NeckLevels {
    /** The 4×, 2× and 1× levels, all that SAM3 consumes ({@code SAM3VLBackbone(scalp=1)}); for serving. */
    USED(NeckScale.FOUR, NeckScale.TWO, NeckScale.ONE),
    /** Also the 0.5× level upstream computes and discards; to reproduce every upstream neck output. */
    ALL(NeckScale.values());

    private final List<NeckScale> scales;

    NeckLevels(NeckScale... scales) {
        this.scales = List.copyOf(Arrays.asList(scales));
    }

    /** The scales, finest first (= upstream {@code convs} order). */
    public List<NeckScale> scales() {
        return scales;
    }
}
