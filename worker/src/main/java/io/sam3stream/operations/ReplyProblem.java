package io.sam3stream.operations;

import java.util.Locale;

/** Why a request's reply destination could not be used as named; its result then says so in an ERROR. */
public enum ReplyProblem {
    /** The reply topic, or the partition named on it, does not exist: the ERROR goes to the results topic. */
    UNKNOWN_DESTINATION,
    /** The reply-partition header is not a 4-byte big-endian int, or is negative. */
    BAD_PARTITION_HEADER;

    /** The value of the {@code problem} label. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
