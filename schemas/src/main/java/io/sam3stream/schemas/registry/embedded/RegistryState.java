package io.sam3stream.schemas.registry.embedded;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/**
 * The registry's data and rules, independent of HTTP: subjects with numbered versions, schema ids that are global
 * and shared by every subject holding the same schema, and compatibility levels enforced at registration.
 *
 * <p>Two schemas are "the same" when their full normalised JSON ({@link Schema#toString()}) is equal, as in
 * Confluent's registry. Avro's Parsing Canonical Form would be too coarse: it drops defaults and docs, and a
 * default is exactly what makes an added field readable, so a schema that differs only by a default must get its
 * own id.
 *
 * <p>With a store, every change is saved before it is acknowledged; a change that cannot be saved is undone
 * and reported. All methods are synchronized: registrations are rare and tiny.
 */
final class RegistryState {

    private final RegistryStore store;
    private CompatibilityLevel globalLevel;
    private final Map<String, CompatibilityLevel> subjectLevels = new TreeMap<>();
    private final TreeMap<Integer, Schema> schemasById = new TreeMap<>();
    private final Map<String, Integer> idsBySchemaText = new HashMap<>();
    private final Map<String, List<Integer>> subjectVersions = new TreeMap<>();

    /** A registry that forgets everything when it stops. */
    RegistryState() {
        this.store = null;
        restore(RegistrySnapshot.empty());
    }

    /** A registry that loads its state from {@code store} and saves every change there. */
    RegistryState(RegistryStore store) throws IOException {
        this.store = store;
        try {
            restore(store.load());
        } catch (RuntimeException e) {
            throw new IOException("the schema registry state in " + store.describe() + " is inconsistent: " + e, e);
        }
    }

    /** Releases the store (if any). */
    synchronized void close() {
        if (store != null) {
            store.close();
        }
    }

    /** A version of a subject as the API reports it. */
    record Version(String subject, int version, int id, String schema) {
    }

    /**
     * Registers {@code schemaText} under {@code subject}: returns the id it already has there, or adds it as the
     * subject's next version (reusing the id another subject gave the same schema) if the subject's
     * compatibility level allows.
     */
    synchronized int register(String subject, String schemaText) {
        Schema schema = parse(schemaText);
        String text = schema.toString();
        Integer knownId = idsBySchemaText.get(text);
        List<Integer> versions = subjectVersions.getOrDefault(subject, List.of());
        if (knownId != null && versions.contains(knownId)) {
            return knownId;
        }
        CompatibilityLevel level = compatibilityLevel(subject);
        List<String> problems = level.problems(schema, level.versionsToCheck(schemas(versions)));
        if (!problems.isEmpty()) {
            throw RegistryApiException.incompatible(subject, problems);
        }
        return mutate(() -> {
            int id = knownId != null ? knownId : nextId();
            schemasById.put(id, schema);
            idsBySchemaText.put(text, id);
            subjectVersions.computeIfAbsent(subject, s -> new ArrayList<>()).add(id);
            return id;
        });
    }

    /** The version of {@code subject} that holds {@code schemaText}. */
    synchronized Version lookUp(String subject, String schemaText) {
        List<Integer> versions = existingVersions(subject);
        Schema schema = parse(schemaText);
        Integer id = idsBySchemaText.get(schema.toString());
        int index = id == null ? -1 : versions.indexOf(id);
        if (index < 0) {
            throw RegistryApiException.schemaNotFound("Schema");
        }
        return new Version(subject, index + 1, id, schema.toString());
    }

    /** The schema text with {@code id}. */
    synchronized String schemaById(int id) {
        Schema schema = schemasById.get(id);
        if (schema == null) {
            throw RegistryApiException.schemaNotFound("Schema " + id);
        }
        return schema.toString();
    }

    /** Every (subject, version) registered with schema {@code id}, subjects in name order. */
    synchronized List<Version> versionsOfId(int id) {
        schemaById(id); // an unknown id is a 404, not an empty list
        List<Version> found = new ArrayList<>();
        for (String subject : new java.util.TreeSet<>(subjectVersions.keySet())) {
            List<Integer> ids = existingVersions(subject);
            for (int v = 0; v < ids.size(); v++) {
                if (ids.get(v) == id) {
                    found.add(new Version(subject, v + 1, id, schemasById.get(id).toString()));
                }
            }
        }
        return found;
    }

    synchronized List<String> subjects() {
        return List.copyOf(subjectVersions.keySet());
    }

    /** The version numbers of {@code subject}, 1 first. */
    synchronized List<Integer> versions(String subject) {
        int count = existingVersions(subject).size();
        List<Integer> numbers = new ArrayList<>(count);
        for (int v = 1; v <= count; v++) {
            numbers.add(v);
        }
        return numbers;
    }

    /** The version {@code versionSpec} ({@code latest}, {@code -1} or a number) of {@code subject}. */
    synchronized Version version(String subject, String versionSpec) {
        List<Integer> versions = existingVersions(subject);
        int version = versionNumber(versionSpec, versions.size());
        if (version > versions.size()) {
            throw RegistryApiException.versionNotFound(subject, version);
        }
        int id = versions.get(version - 1);
        return new Version(subject, version, id, schemasById.get(id).toString());
    }

    /**
     * Why {@code schemaText} could not be registered under {@code subject}; empty when it could. With
     * {@code versionSpec} null or {@code latest}, the check is the one registration makes (against the versions
     * the subject's level names, none for a new subject); with a version number, against that version only.
     */
    synchronized List<String> compatibilityProblems(String subject, String versionSpec, String schemaText) {
        Schema schema = parse(schemaText);
        CompatibilityLevel level = compatibilityLevel(subject);
        if (versionSpec == null || isLatest(versionSpec)) {
            List<Integer> versions = subjectVersions.getOrDefault(subject, List.of());
            return level.problems(schema, level.versionsToCheck(schemas(versions)));
        }
        Version version = version(subject, versionSpec);
        return level.problems(schema, List.of(schemasById.get(version.id())));
    }

    synchronized CompatibilityLevel globalLevel() {
        return globalLevel;
    }

    synchronized void setGlobalLevel(CompatibilityLevel level) {
        mutate(() -> globalLevel = level);
    }

    /** The level set for {@code subject} itself, if any. */
    synchronized Optional<CompatibilityLevel> subjectLevel(String subject) {
        return Optional.ofNullable(subjectLevels.get(subject));
    }

    synchronized void setSubjectLevel(String subject, CompatibilityLevel level) {
        mutate(() -> subjectLevels.put(subject, level));
    }

    /** The level in force for {@code subject}: its own, else the global one. */
    synchronized CompatibilityLevel compatibilityLevel(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }

    synchronized RegistrySnapshot snapshot() {
        Map<Integer, String> schemas = new TreeMap<>();
        schemasById.forEach((id, schema) -> schemas.put(id, schema.toString()));
        Map<String, List<Integer>> subjects = new TreeMap<>();
        subjectVersions.forEach((subject, ids) -> subjects.put(subject, List.copyOf(ids)));
        return new RegistrySnapshot(globalLevel, new TreeMap<>(subjectLevels), schemas, subjects);
    }

    private <R> R mutate(Supplier<R> change) {
        RegistrySnapshot before = snapshot();
        R result = change.get();
        if (store != null) {
            try {
                store.save(snapshot());
            } catch (IOException e) {
                restore(before);
                throw RegistryApiException.backendStore(e.toString());
            }
        }
        return result;
    }

    private void restore(RegistrySnapshot snapshot) {
        globalLevel = snapshot.compatibility() == null ? CompatibilityLevel.BACKWARD : snapshot.compatibility();
        subjectLevels.clear();
        schemasById.clear();
        idsBySchemaText.clear();
        subjectVersions.clear();
        if (snapshot.subjectCompatibility() != null) {
            subjectLevels.putAll(snapshot.subjectCompatibility());
        }
        if (snapshot.schemas() != null) {
            snapshot.schemas().forEach((id, text) -> {
                Schema schema = new Schema.Parser().parse(text);
                schemasById.put(id, schema);
                idsBySchemaText.put(schema.toString(), id);
            });
        }
        if (snapshot.subjects() != null) {
            snapshot.subjects().forEach((subject, ids) -> {
                for (int id : ids) {
                    if (!schemasById.containsKey(id)) {
                        throw new IllegalStateException(
                                "subject '" + subject + "' refers to schema " + id + ", which the state lacks");
                    }
                }
                subjectVersions.put(subject, new ArrayList<>(ids));
            });
        }
    }

    private List<Integer> existingVersions(String subject) {
        List<Integer> versions = subjectVersions.get(subject);
        if (versions == null) {
            throw RegistryApiException.subjectNotFound(subject);
        }
        return versions;
    }

    private List<Schema> schemas(List<Integer> ids) {
        return ids.stream().map(schemasById::get).toList();
    }

    private int nextId() {
        return schemasById.isEmpty() ? 1 : schemasById.lastKey() + 1;
    }

    private static boolean isLatest(String versionSpec) {
        return "latest".equals(versionSpec) || "-1".equals(versionSpec);
    }

    private static int versionNumber(String versionSpec, int latest) {
        if (isLatest(versionSpec)) {
            return latest;
        }
        try {
            int version = Integer.parseInt(versionSpec);
            if (version >= 1) {
                return version;
            }
        } catch (NumberFormatException e) {
            // reported below, as Confluent does, with the allowed range
        }
        throw RegistryApiException.invalidVersion(versionSpec);
    }

    private static Schema parse(String schemaText) {
        if (schemaText == null || schemaText.isBlank()) {
            throw RegistryApiException.invalidSchema("empty schema");
        }
        try {
            return new Schema.Parser().parse(schemaText);
        } catch (RuntimeException e) {
            throw RegistryApiException.invalidSchema(e.getMessage());
        }
    }
}
