package io.sam3stream.facade.jobs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;

/**
 * What the job store keeps about one request id: when it was submitted through {@code POST /v1/jobs} (absent for a
 * request that came straight from Kafka), when its result was published, and that result exactly as the worker
 * wrote it (Confluent wire-format Avro {@code SegmentationResult}), so the stored bytes stay those of the contract
 * and are rendered only when read. Its own encoding is a small fixed layout: the record lives only in the facade's
 * internal topics, which no other component reads.
 *
 * @param submittedAt when the submission was accepted, or null
 * @param finishedAt  when the result was published, or null while the job is pending
 * @param result      the result's wire bytes, or null while pending
 */
public record JobRecord(Instant submittedAt, Instant finishedAt, byte[] result) {

    private static final byte VERSION = 1;
    private static final long ABSENT = Long.MIN_VALUE;

    /** A submission whose result has not arrived. */
    public static JobRecord pending(Instant submittedAt) {
        return new JobRecord(submittedAt, null, null);
    }

    /** Whether the result arrived. */
    public boolean finished() {
        return result != null;
    }

    /** The same job with its result. */
    public JobRecord withResult(Instant at, byte[] resultBytes) {
        return new JobRecord(submittedAt, at, resultBytes);
    }

    /** The same job with its submission time (a result that was read before its submission). */
    public JobRecord withSubmittedAt(Instant at) {
        return new JobRecord(at, finishedAt, result);
    }

    /**
     * When the job stops being readable: {@code retention} after it finished, or after it was submitted while it is
     * still pending (so a submission whose result never comes does not stay forever).
     */
    public Instant expiresAt(Duration retention) {
        Instant since = finishedAt != null ? finishedAt : submittedAt;
        return since == null ? Instant.MIN : since.plus(retention);
    }

    /** The stored form. */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + (result == null ? 0 : result.length));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeLong(submittedAt == null ? ABSENT : submittedAt.toEpochMilli());
            out.writeLong(finishedAt == null ? ABSENT : finishedAt.toEpochMilli());
            out.writeInt(result == null ? -1 : result.length);
            if (result != null) {
                out.write(result);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * The record {@link #toBytes} wrote.
     *
     * @throws IllegalArgumentException for bytes of another layout
     */
    public static JobRecord fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readByte() != VERSION) {
                throw new IllegalArgumentException("a job record of an unknown version");
            }
            Instant submitted = instant(in.readLong());
            Instant finished = instant(in.readLong());
            int length = in.readInt();
            if (length > in.available()) {
                throw new IllegalArgumentException("a truncated job record");
            }
            byte[] result = length < 0 ? null : in.readNBytes(length);
            return new JobRecord(submitted, finished, result);
        } catch (IOException e) {
            throw new IllegalArgumentException("a truncated job record", e);
        }
    }

    private static Instant instant(long millis) {
        return millis == ABSENT ? null : Instant.ofEpochMilli(millis);
    }
}
