package io.sam3stream.schemas.registry.embedded;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/**
 * The Confluent compatibility levels: which earlier versions of a subject a new schema is checked against, and
 * in which direction, using Avro's own reader/writer compatibility rules.
 */
public enum CompatibilityLevel {
    /** No checks. */
    NONE(false, false, false),
    /** The new schema reads data written with the latest version (consumers upgrade first). */
    BACKWARD(true, false, false),
    /** The new schema reads data written with every earlier version. */
    BACKWARD_TRANSITIVE(true, false, true),
    /** The latest version reads data written with the new schema (producers upgrade first). */
    FORWARD(false, true, false),
    /** Every earlier version reads data written with the new schema. */
    FORWARD_TRANSITIVE(false, true, true),
    /** BACKWARD and FORWARD against the latest version. */
    FULL(true, true, false),
    /** BACKWARD and FORWARD against every earlier version. */
    FULL_TRANSITIVE(true, true, true);

    private final boolean newReadsOld;
    private final boolean oldReadsNew;
    private final boolean transitive;

    CompatibilityLevel(boolean newReadsOld, boolean oldReadsNew, boolean transitive) {
        this.newReadsOld = newReadsOld;
        this.oldReadsNew = oldReadsNew;
        this.transitive = transitive;
    }

    /** Of a subject's versions, oldest first, those a new schema must be compatible with. */
    List<Schema> versionsToCheck(List<Schema> versions) {
        if (transitive || versions.isEmpty()) {
            return versions;
        }
        return List.of(versions.get(versions.size() - 1));
    }

    /** Why {@code candidate} is not compatible with each of {@code earlier} at this level; empty when it is. */
    List<String> problems(Schema candidate, List<Schema> earlier) {
        List<String> problems = new ArrayList<>();
        for (Schema old : earlier) {
            if (newReadsOld) {
                collect(candidate, old, "the new schema cannot read data written with an earlier one", problems);
            }
            if (oldReadsNew) {
                collect(old, candidate, "an earlier schema cannot read data written with the new one", problems);
            }
        }
        return problems;
    }

    private static void collect(Schema reader, Schema writer, String direction, List<String> problems) {
        for (Incompatibility incompatibility :
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getResult().getIncompatibilities()) {
            problems.add(direction + ": " + incompatibility.getType() + " at " + incompatibility.getLocation()
                    + ": " + incompatibility.getMessage());
        }
    }
}
