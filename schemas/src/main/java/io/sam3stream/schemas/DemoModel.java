package io.sam3stream.schemas;

/**
 * How a worker serving the demo model (a small configuration with generated weights, started when no checkpoint is
 * found) names its weights in heartbeats, so that every reader of them can tell its answers are not meaningful.
 */
public final class DemoModel {

    /** The {@code model_repo} and {@code model_revision} of a worker serving the demo model. */
    public static final String NAME = "demo";

    private DemoModel() {}

    /** True when a worker's heartbeat names the demo model. */
    public static boolean is(String modelRepo, String modelRevision) {
        return NAME.equals(modelRepo) && NAME.equals(modelRevision);
    }
}
