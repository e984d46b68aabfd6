package io.sam3stream.engine;

/**
 * Identity of a running engine, reported in results, heartbeats and {@code /info}.
 *
 * @param backend        cpu, native-host or tt
 * @param device         human-readable device description
 * @param modelRepo      weights repository (e.g. facebook/sam3), or a file name for a local checkpoint
 * @param modelRevision  weights revision, or "local"
 * @param checkpoint     the checkpoint file or source actually loaded
 * @param inputSize      model input side
 * @param precision      what the model computes in and why ({@link PrecisionChoice#describe})
 */
public record EngineInfo(String backend, String device, String modelRepo, String modelRevision, String checkpoint,
        int inputSize, String precision) {}
