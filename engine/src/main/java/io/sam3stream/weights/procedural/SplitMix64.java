package io.sam3stream.weights.procedural;

/**
 * The SplitMix64 generator, addressed by position. Its state after {@code n} steps is simply
 * {@code seed + n * GAMMA} (mod 2^64), so any output can be computed without the ones before it; that is what lets
 * a tensor be generated in independent chunks on several threads. All arithmetic wraps modulo 2^64, which is
 * Java's {@code long} arithmetic; values are unsigned 64-bit integers held in longs.
 */
public final class SplitMix64 {

    /** The increment of the generator's state per step (the odd integer nearest 2^64 / golden ratio). */
    public static final long GAMMA = 0x9E3779B97F4A7C15L;

    private SplitMix64() {}

    /** The output function: a bijective mix of the 64 state bits. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Output number {@code index} (0-based) of the generator seeded with {@code seed}: the value a sequential
     * generator returns on its {@code index + 1}-th call, {@code mix64(seed + (index + 1) * GAMMA)}.
     */
    public static long output(long seed, long index) {
        return mix64(seed + (index + 1) * GAMMA);
    }
}
