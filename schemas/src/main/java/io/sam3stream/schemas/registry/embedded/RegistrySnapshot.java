package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sam3stream.schemas.registry.SchemaReference;
import java.util.List;
import java.util.Map;

/**
 * Everything the registry knows, in the form it is persisted. States written before deletes, modes and references
 * existed hold only {@code compatibility}, {@code subjectCompatibility}, {@code schemas} and {@code subjects}; they
 * still load (every version live, READWRITE, no references).
 *
 * @param compatibility the global compatibility level
 * @param subjectCompatibility compatibility levels set for single subjects
 * @param schemas schema text by id, with shared types named rather than inlined where references supply them
 * @param subjects the earlier layout of the versions: for each subject, the schema id of versions 1, 2, ...;
 *     read when {@code versions} is absent, never written
 * @param references the references of each schema id that has some
 * @param versions for each subject, its versions (soft-deleted ones included), lowest first
 * @param mode the global mode
 * @param subjectModes modes set for single subjects
 * @param nextId the id the next new schema gets; ids are never reused, not even after a permanent delete
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record RegistrySnapshot(
        CompatibilityLevel compatibility,
        Map<String, CompatibilityLevel> subjectCompatibility,
        Map<Integer, String> schemas,
        Map<String, List<Integer>> subjects,
        Map<Integer, List<SchemaReference>> references,
        Map<String, List<StoredVersion>> versions,
        RegistryMode mode,
        Map<String, RegistryMode> subjectModes,
        Integer nextId) {

    /**
     * One version of a subject.
     *
     * @param version its number within the subject
     * @param id the schema id it holds
     * @param deleted whether it is soft-deleted
     */
    record StoredVersion(int version, int id, boolean deleted) {
    }

    static RegistrySnapshot empty() {
        return new RegistrySnapshot(CompatibilityLevel.BACKWARD, Map.of(), Map.of(), null, Map.of(), Map.of(),
                RegistryMode.READWRITE, Map.of(), 1);
    }
}
