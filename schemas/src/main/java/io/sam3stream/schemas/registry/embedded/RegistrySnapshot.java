package io.sam3stream.schemas.registry.embedded;

import java.util.List;
import java.util.Map;

/**
 * Everything the registry knows, in the form it is persisted.
 *
 * @param compatibility the global compatibility level
 * @param subjectCompatibility compatibility levels set for single subjects
 * @param schemas schema text by id
 * @param subjects for each subject, the schema id of each version, version 1 first
 */
record RegistrySnapshot(
        CompatibilityLevel compatibility,
        Map<String, CompatibilityLevel> subjectCompatibility,
        Map<Integer, String> schemas,
        Map<String, List<Integer>> subjects) {

    static RegistrySnapshot empty() {
        return new RegistrySnapshot(CompatibilityLevel.BACKWARD, Map.of(), Map.of(), Map.of());
    }
}
