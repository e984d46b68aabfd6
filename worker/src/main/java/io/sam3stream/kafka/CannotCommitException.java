package io.sam3stream.kafka;

/**
 * The worker can no longer commit its transactions: another instance with its transactional id fenced it, the
 * cluster refuses it, or its commits keep timing out (after which neither a commit nor an abort may follow). Nothing
 * it publishes from here on would count, so it must stop and be restarted by its supervisor.
 */
public class CannotCommitException extends RuntimeException {
    public CannotCommitException(String message, Throwable cause) {
        super(message, cause);
    }
}
