package io.sam3stream.config;

/** Fixed bounds of a request that every component enforces alike (the configurable ones are knobs). */
public final class RequestBounds {

    /**
     * Longest prompt in characters. A noun phrase is a few words and only 30 tokens reach the model, but BPE
     * cost grows with the square of a word's length, so unbounded prompts would let one request stall a worker.
     * Longer prompts are a 422 (a field out of its range).
     */
    public static final int MAX_PROMPT_CHARS = 1000;

    private RequestBounds() {}
}
