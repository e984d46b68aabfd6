package io.sam3stream.kafka;

/** The worker's transactional producer was fenced or refused; the worker must stop (and be restarted). */
public class WorkerFencedException extends RuntimeException {
    public WorkerFencedException(String message, Throwable cause) {
        super(message, cause);
    }
}
