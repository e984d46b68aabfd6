package io.sam3stream.operations;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.Status;
import io.sam3stream.schemas.serde.UndecodableRecordException;

/**
 * What one consumed record came to, as the worker's counters see it once its outcome is committed: a result with
 * its status and error code, or a dead letter with the reason its record could not be read.
 */
public sealed interface Verdict {

    /**
     * A result was published.
     *
     * @param status       OK or ERROR
     * @param code         the error code; null for OK
     * @param replyProblem what was wrong with the reply destination the request named; null when nothing was
     */
    record Answered(Status status, ErrorCode code, ReplyProblem replyProblem) implements Verdict {}

    /**
     * The record went to the dead-letter topic.
     *
     * @param reason the {@link UndecodableRecordException.Reason}'s name, or the failure's class name for any other
     *               failure before the request was decoded
     */
    record DeadLettered(String reason) implements Verdict {}

    /** The dead-letter verdict of a record that failed with {@code failure} before it could be decoded. */
    static Verdict deadLetterOf(Throwable failure) {
        return new DeadLettered(failure instanceof UndecodableRecordException undecodable
                ? undecodable.reason().name() : failure.getClass().getSimpleName());
    }
}
