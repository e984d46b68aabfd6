package io.sam3stream.parity;

/** The outcome of comparing one reference stage with what the engine computed. */
public interface StageVerdict {

    /** The stage's name in the reference outputs. */
    String stage();

    /** Whether the stage met its rule. */
    boolean passed();

    /** One line for the parity report: the stage, its differences and PASS/FAIL. */
    String reportLine();
}
