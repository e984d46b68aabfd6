package io.sam3stream.containers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs the container tests only where they can run: a Docker engine is reachable and the tiny checkpoint the worker
 * container loads is present. Otherwise each test method is disabled with the reason, which surefire reports as a
 * skipped test carrying that message (a class-level skip would be reported as no tests at all).
 */
final class DockerStackCondition implements ExecutionCondition {

    /** The tiny checkpoint folder (golden {@code sam3-tiny}: {@code sam3-tiny.pt} and {@code config.json}). */
    static Path tinyCheckpointDir() {
        return Path.of(System.getProperty("sam3.tiny.dir", "../../shared/golden/sam3-tiny"));
    }

    /** Why the stack cannot run here, or empty when it can. */
    static Optional<String> whyNot() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return Optional.of("no Docker engine is reachable (DOCKER_HOST, /var/run/docker.sock): the Testcontainers"
                    + " suite needs one; the embedded-broker suites cover the same paths without it");
        }
        Path checkpoint = tinyCheckpointDir().resolve("sam3-tiny.pt");
        if (!Files.isRegularFile(checkpoint)) {
            return Optional.of("the tiny checkpoint " + checkpoint + " is absent");
        }
        return Optional.empty();
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            return ConditionEvaluationResult.enabled("decided per test");
        }
        return whyNot().map(ConditionEvaluationResult::disabled)
                .orElseGet(() -> ConditionEvaluationResult.enabled("Docker engine and tiny checkpoint present"));
    }
}
