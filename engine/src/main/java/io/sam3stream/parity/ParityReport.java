package io.sam3stream.parity;

import java.util.List;

/**
 * The outcome of a parity check: one verdict per reference stage the engine produced, and the reference stages
 * it did not produce.
 *
 * @param verdicts       per-stage verdicts, in reference order
 * @param notImplemented reference stages nothing was recorded for
 */
public record ParityReport(List<StageVerdict> verdicts, List<String> notImplemented) {

    public ParityReport {
        verdicts = List.copyOf(verdicts);
        notImplemented = List.copyOf(notImplemented);
    }

    /** True when every stage was produced and met its rule. */
    public boolean passed() {
        return notImplemented.isEmpty() && verdicts.stream().allMatch(StageVerdict::passed);
    }

    /** The verdicts that failed. */
    public List<StageVerdict> failures() {
        return verdicts.stream().filter(v -> !v.passed()).toList();
    }
}
