package io.sam3stream.schemas.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * The record's bytes cannot be turned into a value: the record itself is bad, so retrying cannot help and it
 * belongs in the dead-letter topic. (A registry that cannot be reached is not this: that surfaces as a
 * {@link io.sam3stream.schemas.registry.SchemaRegistryException} and is worth retrying.)
 *
 * <p>A Kafka consumer wraps deserializer failures in {@code RecordDeserializationException}; this exception is its
 * cause.
 */
public final class UndecodableRecordException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /** What is wrong with the record. */
    public enum Reason {
        /** Shorter than the 5-byte wire-format header (magic byte and schema id). */
        TRUNCATED_HEADER,
        /** Byte 0 is not the wire format's magic byte 0, so the record is not in the Confluent wire format. */
        WRONG_MAGIC_BYTE,
        /** The registry knows no schema with the id the header names. */
        UNKNOWN_SCHEMA_ID,
        /** The writer's schema cannot be resolved to the reader's (Avro schema resolution fails). */
        INCOMPATIBLE_SCHEMA,
        /** The Avro body ends before the writer's schema is read through. */
        TRUNCATED_BODY,
        /** The Avro body is not valid for the writer's schema, or has bytes left over after it. */
        MALFORMED_BODY
    }

    private final Reason reason;

    /** A record that failed for {@code reason}. */
    public UndecodableRecordException(Reason reason, String message) {
        super(reason + ": " + message);
        this.reason = reason;
    }

    /** A record that failed for {@code reason}, found through {@code cause}. */
    public UndecodableRecordException(Reason reason, String message, Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = reason;
    }

    /** What is wrong with the record. */
    public Reason reason() {
        return reason;
    }
}
