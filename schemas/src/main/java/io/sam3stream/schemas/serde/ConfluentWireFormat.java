package io.sam3stream.schemas.serde;

import java.io.ByteArrayOutputStream;

/**
 * The Confluent wire format's 5-byte header: byte 0 is the magic byte 0, bytes 1..4 the registry's schema id as a
 * big-endian int; the Avro binary encoding of the value follows. Confluent's serializers, Apicurio's in
 * Confluent mode and ours all frame records this way, so they read each other's records.
 */
public final class ConfluentWireFormat {

    /** The only format version there is. */
    public static final byte MAGIC_BYTE = 0;

    /** Magic byte plus schema id. */
    public static final int HEADER_LENGTH = 1 + Integer.BYTES;

    private ConfluentWireFormat() {
    }

    /** Writes the header naming {@code schemaId}. */
    public static void writeHeader(ByteArrayOutputStream out, int schemaId) {
        out.write(MAGIC_BYTE);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
    }

    /**
     * The schema id in the header of {@code record}.
     *
     * @throws UndecodableRecordException {@link UndecodableRecordException.Reason#TRUNCATED_HEADER} or
     *     {@link UndecodableRecordException.Reason#WRONG_MAGIC_BYTE} when there is no such header
     */
    public static int schemaId(byte[] record) {
        if (record.length < HEADER_LENGTH) {
            throw new UndecodableRecordException(UndecodableRecordException.Reason.TRUNCATED_HEADER,
                    "record has " + record.length + " bytes, the wire-format header alone has " + HEADER_LENGTH);
        }
        if (record[0] != MAGIC_BYTE) {
            throw new UndecodableRecordException(UndecodableRecordException.Reason.WRONG_MAGIC_BYTE,
                    String.format("record starts with byte 0x%02x, not the magic byte 0x00", record[0] & 0xff));
        }
        return (record[1] & 0xff) << 24 | (record[2] & 0xff) << 16 | (record[3] & 0xff) << 8 | (record[4] & 0xff);
    }
}
