package io.sam3stream.schemas.serde;

import io.sam3stream.schemas.serde.UndecodableRecordException.Reason;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/** Avro schema resolution between the schema a record was written with and the one it is read as. */
final class SchemaResolution {

    private SchemaResolution() {
    }

    /**
     * Checks that data written with {@code writer} can be read as {@code reader}. Checked up front, once per
     * writer schema, so that an unreadable writer schema is reported as such, with Avro's explanation, rather
     * than as a failure somewhere inside a record's body.
     *
     * @throws UndecodableRecordException {@link Reason#INCOMPATIBLE_SCHEMA} when it cannot
     */
    static void requireReadable(Schema writer, Schema reader) {
        SchemaPairCompatibility compatibility = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            String problems = compatibility.getResult().getIncompatibilities().stream()
                    .map(i -> i.getMessage() + " at " + i.getLocation())
                    .collect(Collectors.joining("; "));
            throw new UndecodableRecordException(Reason.INCOMPATIBLE_SCHEMA, "data written as "
                    + writer.getFullName() + " cannot be read as " + reader.getFullName() + ": " + problems);
        }
    }
}
