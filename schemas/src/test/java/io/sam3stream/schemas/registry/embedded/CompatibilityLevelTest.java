package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_REQUIRED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_STRING_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.EMPTY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class CompatibilityLevelTest {

    /** v1 {a: int}, v2 {} (a dropped), then v3 {a: string = "?"}: reads v2 data, not v1 data. */
    private static final List<Schema> HISTORY = List.of(A_INT, EMPTY);

    @Test
    void backwardChecksOnlyTheLatestVersion() {
        assertTrue(problems(CompatibilityLevel.BACKWARD, A_STRING_DEFAULTED, HISTORY).isEmpty());
    }

    @Test
    void backwardTransitiveChecksEveryVersion() {
        List<String> problems = problems(CompatibilityLevel.BACKWARD_TRANSITIVE, A_STRING_DEFAULTED, HISTORY);

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("TYPE_MISMATCH"), problems.toString());
    }

    @Test
    void directionsFollowWhoUpgradesFirst() {
        List<Schema> v1 = List.of(A_INT);
        // adding a defaulted field: new reads old and old reads new
        assertTrue(problems(CompatibilityLevel.FULL, A_INT_B_DEFAULTED, v1).isEmpty());
        // adding a required field: old reads new (FORWARD) but new cannot read old (BACKWARD)
        assertTrue(problems(CompatibilityLevel.FORWARD, A_INT_B_REQUIRED, v1).isEmpty());
        assertFalse(problems(CompatibilityLevel.BACKWARD, A_INT_B_REQUIRED, v1).isEmpty());
        assertFalse(problems(CompatibilityLevel.FULL, A_INT_B_REQUIRED, v1).isEmpty());
        assertTrue(problems(CompatibilityLevel.NONE, A_STRING_DEFAULTED, v1).isEmpty());
    }

    private static List<String> problems(CompatibilityLevel level, Schema candidate, List<Schema> history) {
        return level.problems(candidate, level.versionsToCheck(history));
    }
}
