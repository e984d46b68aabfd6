package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sam3stream.schemas.registry.SchemaReference;
import io.sam3stream.schemas.registry.SchemaText;
import io.sam3stream.schemas.registry.embedded.RegistrySnapshot.StoredVersion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/**
 * The registry's data and rules, independent of HTTP: subjects with numbered versions (soft-deleted or live),
 * schema ids that are global and shared by every subject holding the same schema, compatibility levels enforced at
 * registration, modes, and references between schemas.
 *
 * <p>Two schemas are "the same" when their full normalised JSON ({@link Schema#toString()}, referenced types
 * printed by name) and their references are equal, as in Confluent's registry. Avro's Parsing Canonical Form
 * would be too coarse: it drops defaults and docs, and a default is exactly what makes an added field readable,
 * so a schema that differs only by a default must get its own id.
 *
 * <p>Deletes follow Confluent: a soft delete hides versions from listings and look-ups (unless asked for with
 * {@code deleted=true}) and keeps their ids resolvable; a permanent delete, allowed only after a soft one, removes
 * them, and an id no version holds any more is gone, never to be given out again. A version other schemas
 * reference cannot be deleted (42206).
 *
 * <p>With a store, every change is saved before it is acknowledged; a change that cannot be saved is undone
 * and reported. All methods are synchronized: registrations are rare and tiny.
 */
final class RegistryState {

    private final RegistryStore store;
    private final SubjectSetting<CompatibilityLevel> levels =
            new SubjectSetting<>(CompatibilityLevel.BACKWARD, RegistryApiException::subjectLevelNotConfigured);
    private final SubjectSetting<RegistryMode> modes =
            new SubjectSetting<>(RegistryMode.READWRITE, RegistryApiException::subjectModeNotConfigured);
    private final TreeMap<Integer, SchemaText> schemasById = new TreeMap<>();
    private final Map<Integer, Schema> resolvedById = new HashMap<>();
    private final Map<SchemaText, Integer> idsBySchema = new HashMap<>();
    private final TreeMap<String, TreeMap<Integer, StoredVersion>> subjects = new TreeMap<>();
    private int nextId;

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
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record Version(String subject, int version, int id, String schema, List<SchemaReference> references) {
    }

    /**
     * Registers {@code schemaText} under {@code subject}: returns the id it already has there (as a live
     * version), or adds it as the subject's next version (reusing the id another subject, or a deleted version,
     * gave the same schema) if the subject's mode and compatibility level allow. In IMPORT mode the caller may
     * name the id and the version.
     *
     * @param id the id to give it, or {@code null}; only in IMPORT mode
     * @param version the version number to give it, or {@code null}; only in IMPORT mode
     */
    synchronized int register(String subject, SchemaText schemaText, Integer id, Integer version) {
        RegistryMode mode = mode(subject);
        requireWritable(subject, mode);
        if ((id != null || version != null) && mode != RegistryMode.IMPORT) {
            throw RegistryApiException.operationNotPermitted("A schema id or version can only be given in IMPORT"
                    + " mode; subject '" + subject + "' is in " + mode + " mode.");
        }
        ReferenceResolution.Parsed parsed = parse(schemaText);
        Integer knownId = idsBySchema.get(parsed.normalized());
        NavigableMap<Integer, StoredVersion> versions = subjects.getOrDefault(subject, new TreeMap<>());
        if (knownId != null && liveVersionWith(versions, knownId) != null) {
            return knownId;
        }
        int newId = chooseId(parsed.normalized(), knownId, id);
        int newVersion = chooseVersion(subject, versions, version);
        if (mode != RegistryMode.IMPORT) { // an import copies history as it was, compatible or not
            CompatibilityLevel level = compatibilityLevel(subject);
            List<String> problems = level.problems(parsed.schema(), level.versionsToCheck(liveSchemas(versions)));
            if (!problems.isEmpty()) {
                throw RegistryApiException.incompatible(subject, problems);
            }
        }
        return mutate(() -> {
            schemasById.put(newId, parsed.normalized());
            resolvedById.put(newId, parsed.schema());
            idsBySchema.put(parsed.normalized(), newId);
            nextId = Math.max(nextId, newId + 1);
            subjects.computeIfAbsent(subject, s -> new TreeMap<>())
                    .put(newVersion, new StoredVersion(newVersion, newId, false));
            return newId;
        });
    }

    private int chooseId(SchemaText normalized, Integer knownId, Integer requested) {
        if (requested == null) {
            return knownId != null ? knownId : nextId;
        }
        SchemaText holder = schemasById.get(requested);
        if (holder != null && !holder.equals(normalized)) {
            throw RegistryApiException.operationNotPermitted("Overwrite new schema with id " + requested
                    + " is not permitted: that id holds another schema.");
        }
        if (knownId != null && knownId.intValue() != requested) {
            throw RegistryApiException.operationNotPermitted("The schema is registered with id " + knownId
                    + " already; it cannot also have id " + requested + ".");
        }
        if (requested < 1) {
            throw RegistryApiException.operationNotPermitted("Schema ids start at 1, not " + requested + ".");
        }
        return requested;
    }

    private static int chooseVersion(String subject, NavigableMap<Integer, StoredVersion> versions,
            Integer requested) {
        if (requested == null) {
            return versions.isEmpty() ? 1 : versions.lastKey() + 1; // soft-deleted numbers are not reused
        }
        if (requested < 1) {
            throw RegistryApiException.invalidVersion(requested.toString());
        }
        if (versions.containsKey(requested)) {
            throw RegistryApiException.operationNotPermitted("Version " + requested + " of subject '" + subject
                    + "' exists already.");
        }
        return requested;
    }

    /**
     * The version of {@code subject} that holds {@code schemaText}, the newest if several; soft-deleted ones
     * count too when {@code deleted}.
     */
    synchronized Version lookUp(String subject, SchemaText schemaText, boolean deleted) {
        NavigableMap<Integer, StoredVersion> versions = visibleVersions(subject, deleted);
        Integer id = idsBySchema.get(parse(schemaText).normalized());
        if (id != null) {
            for (StoredVersion v : versions.descendingMap().values()) {
                if (v.id() == id) {
                    return version(subject, v);
                }
            }
        }
        throw RegistryApiException.schemaNotFound("Schema");
    }

    /** The schema with {@code id}, also while every version holding it is soft-deleted. */
    synchronized SchemaText schemaById(int id) {
        SchemaText schema = schemasById.get(id);
        if (schema == null) {
            throw RegistryApiException.schemaNotFound("Schema " + id);
        }
        return schema;
    }

    /** Every (subject, version) registered with schema {@code id}, subjects in name order. */
    synchronized List<Version> versionsOfId(int id, boolean deleted) {
        schemaById(id); // an unknown id is a 404, not an empty list
        List<Version> found = new ArrayList<>();
        subjects.forEach((subject, versions) -> versions.values().stream()
                .filter(v -> v.id() == id && (deleted || !v.deleted()))
                .forEach(v -> found.add(version(subject, v))));
        return found;
    }

    /**
     * The subjects whose name starts with {@code prefix} and that have a live version (or, with {@code deleted},
     * any version).
     */
    synchronized List<String> subjects(String prefix, boolean deleted) {
        return subjects.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .filter(e -> deleted || e.getValue().values().stream().anyMatch(v -> !v.deleted()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The subjects whose name starts with {@code prefix} and whose every version is soft-deleted. */
    synchronized List<String> deletedSubjects(String prefix) {
        List<String> live = subjects(prefix, false);
        return subjects(prefix, true).stream().filter(s -> !live.contains(s)).toList();
    }

    /** The numbers of the soft-deleted versions of {@code subject}, lowest first. */
    synchronized List<Integer> deletedVersions(String subject) {
        return visibleVersions(subject, true).values().stream().filter(StoredVersion::deleted)
                .map(StoredVersion::version).toList();
    }

    /** The largest id given out so far (0 before the first). */
    synchronized int maxId() {
        return nextId - 1;
    }

    /** The version numbers of {@code subject}, lowest first. */
    synchronized List<Integer> versions(String subject, boolean deleted) {
        return List.copyOf(visibleVersions(subject, deleted).keySet());
    }

    /** The version {@code versionSpec} ({@code latest}, {@code -1} or a number) of {@code subject}. */
    synchronized Version version(String subject, String versionSpec, boolean deleted) {
        return version(subject, storedVersion(subject, versionSpec, deleted));
    }

    /**
     * Every version of the subjects whose name starts with {@code prefix}, by subject and then version; only
     * each subject's latest with {@code latestOnly}.
     */
    synchronized List<Version> schemas(String prefix, boolean deleted, boolean latestOnly) {
        List<Version> all = new ArrayList<>();
        for (String subject : subjects(prefix, deleted)) {
            NavigableMap<Integer, StoredVersion> versions = visibleVersions(subject, deleted);
            for (StoredVersion v : latestOnly ? List.of(versions.lastEntry().getValue()) : versions.values()) {
                all.add(version(subject, v));
            }
        }
        return all;
    }

    /** The ids of the schemas with a live version whose references name this version. */
    synchronized List<Integer> referencedBy(String subject, String versionSpec) {
        StoredVersion target = storedVersion(subject, versionSpec, true);
        return List.copyOf(referrers(subject, target.version(), false));
    }

    /**
     * Deletes every version of {@code subject}: softly, or (once soft-deleted) permanently, which also drops the
     * subject's own compatibility level and mode. Returns the version numbers deleted.
     */
    synchronized List<Integer> deleteSubject(String subject, boolean permanent) {
        requireWritable(subject, mode(subject));
        TreeMap<Integer, StoredVersion> versions = subjects.get(subject);
        if (versions == null) {
            throw RegistryApiException.subjectNotFound(subject);
        }
        boolean anyLive = versions.values().stream().anyMatch(v -> !v.deleted());
        if (!permanent && !anyLive) {
            throw RegistryApiException.subjectSoftDeleted(subject);
        }
        if (permanent && anyLive) {
            throw RegistryApiException.subjectNotSoftDeleted(subject);
        }
        for (StoredVersion v : versions.values()) {
            requireUnreferenced(subject, v.version(), !permanent);
        }
        List<Integer> deleted = versions.values().stream()
                .filter(v -> permanent || !v.deleted()).map(StoredVersion::version).toList();
        return mutate(() -> {
            if (permanent) {
                subjects.remove(subject);
                levels.forget(subject);
                modes.forget(subject);
                dropUnheldIds();
            } else {
                versions.replaceAll((n, v) -> new StoredVersion(n, v.id(), true));
            }
            return deleted;
        });
    }

    /** Deletes one version, softly or (once soft-deleted) permanently; returns its number. */
    synchronized int deleteVersion(String subject, String versionSpec, boolean permanent) {
        requireWritable(subject, mode(subject));
        // a soft delete of "latest" means the latest live version; a number may name a soft-deleted one, which
        // must be answered as such rather than as missing
        StoredVersion target = storedVersion(subject, versionSpec, permanent || !isLatest(versionSpec));
        if (!permanent && target.deleted()) {
            throw RegistryApiException.versionSoftDeleted(subject, target.version());
        }
        if (permanent && !target.deleted()) {
            throw RegistryApiException.versionNotSoftDeleted(subject, target.version());
        }
        requireUnreferenced(subject, target.version(), !permanent);
        return mutate(() -> {
            TreeMap<Integer, StoredVersion> versions = subjects.get(subject);
            if (permanent) {
                versions.remove(target.version());
                if (versions.isEmpty()) {
                    subjects.remove(subject);
                }
                dropUnheldIds();
            } else {
                versions.put(target.version(), new StoredVersion(target.version(), target.id(), true));
            }
            return target.version();
        });
    }

    /**
     * Why {@code schemaText} could not be registered under {@code subject}; empty when it could. With
     * {@code versionSpec} null or {@code latest}, the check is the one registration makes (against the live
     * versions the subject's level names, none for a new subject); with a version number, against that version
     * only.
     */
    synchronized List<String> compatibilityProblems(String subject, String versionSpec, SchemaText schemaText) {
        Schema schema = parse(schemaText).schema();
        CompatibilityLevel level = compatibilityLevel(subject);
        if (versionSpec == null || isLatest(versionSpec)) {
            List<Schema> live = liveSchemas(subjects.getOrDefault(subject, new TreeMap<>()));
            return level.problems(schema, level.versionsToCheck(live));
        }
        StoredVersion version = storedVersion(subject, versionSpec, false);
        return level.problems(schema, List.of(resolvedById.get(version.id())));
    }

    /**
     * The compatibility level: the global one ({@code subject} null) or the subject's own, falling back to the
     * global one only with {@code defaultToGlobal}.
     */
    synchronized CompatibilityLevel level(String subject, boolean defaultToGlobal) {
        return levels.get(subject, defaultToGlobal);
    }

    /** Sets the global level ({@code subject} null) or the subject's own. */
    synchronized void setLevel(String subject, CompatibilityLevel level) {
        mutate(() -> {
            levels.set(subject, level);
            return level;
        });
    }

    /** Deletes the subject's own level, or resets the global one ({@code subject} null); returns the old one. */
    synchronized CompatibilityLevel deleteLevel(String subject) {
        return mutate(() -> levels.delete(subject));
    }

    /** The mode, as {@link #level} answers the level. */
    synchronized RegistryMode mode(String subject, boolean defaultToGlobal) {
        return modes.get(subject, defaultToGlobal);
    }

    /**
     * Sets the global mode ({@code subject} null) or the subject's own. IMPORT over a registry (or subject) that
     * holds versions needs {@code force}, since imported ids could then collide with the ones it gave out.
     */
    synchronized void setMode(String subject, RegistryMode mode, boolean force) {
        boolean populated = subject == null ? !subjects.isEmpty() : subjects.containsKey(subject);
        if (mode == RegistryMode.IMPORT && populated && !force) {
            throw RegistryApiException.operationNotPermitted("Cannot import since found existing "
                    + (subject == null ? "subjects" : "versions of subject '" + subject + "'")
                    + "; set force=true to import anyway.");
        }
        mutate(() -> {
            modes.set(subject, mode);
            return mode;
        });
    }

    /** Deletes the subject's own mode, or resets the global one ({@code subject} null); returns the old one. */
    synchronized RegistryMode deleteMode(String subject) {
        return mutate(() -> modes.delete(subject));
    }

    private CompatibilityLevel compatibilityLevel(String subject) {
        return levels.inForce(subject);
    }

    private RegistryMode mode(String subject) {
        return modes.inForce(subject);
    }

    synchronized RegistrySnapshot snapshot() {
        Map<Integer, String> schemas = new TreeMap<>();
        Map<Integer, List<SchemaReference>> references = new TreeMap<>();
        schemasById.forEach((id, schema) -> {
            schemas.put(id, schema.schema());
            if (!schema.references().isEmpty()) {
                references.put(id, schema.references());
            }
        });
        Map<String, List<StoredVersion>> versions = new TreeMap<>();
        subjects.forEach((subject, stored) -> versions.put(subject, List.copyOf(stored.values())));
        return new RegistrySnapshot(levels.get(null, false), levels.bySubject(), schemas, null, references,
                versions, modes.get(null, false), modes.bySubject(), nextId);
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
        levels.restore(snapshot.compatibility(), snapshot.subjectCompatibility());
        modes.restore(snapshot.mode(), snapshot.subjectModes());
        schemasById.clear();
        resolvedById.clear();
        idsBySchema.clear();
        subjects.clear();
        Map<Integer, List<SchemaReference>> references = orEmpty(snapshot.references());
        orEmpty(snapshot.schemas()).forEach((id, text) ->
                schemasById.put(id, new SchemaText(text, references.getOrDefault(id, List.of()))));
        if (snapshot.versions() != null) {
            snapshot.versions().forEach((subject, stored) -> {
                TreeMap<Integer, StoredVersion> versions = new TreeMap<>();
                stored.forEach(v -> versions.put(v.version(), v));
                subjects.put(subject, versions);
            });
        } else {
            orEmpty(snapshot.subjects()).forEach((subject, ids) -> {
                TreeMap<Integer, StoredVersion> versions = new TreeMap<>();
                for (int i = 0; i < ids.size(); i++) {
                    versions.put(i + 1, new StoredVersion(i + 1, ids.get(i), false));
                }
                subjects.put(subject, versions);
            });
        }
        subjects.forEach((subject, versions) -> versions.values().forEach(v -> {
            if (!schemasById.containsKey(v.id())) {
                throw new IllegalStateException(
                        "subject '" + subject + "' refers to schema " + v.id() + ", which the state lacks");
            }
        }));
        // parse every schema now, so a state whose references do not resolve stops the start
        schemasById.forEach((id, text) -> {
            ReferenceResolution.Parsed parsed = parse(text);
            resolvedById.put(id, parsed.schema());
            idsBySchema.put(parsed.normalized(), id);
        });
        int afterLargest = schemasById.isEmpty() ? 1 : schemasById.lastKey() + 1;
        nextId = Math.max(afterLargest, snapshot.nextId() == null ? 1 : snapshot.nextId());
    }

    private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }

    private ReferenceResolution.Parsed parse(SchemaText text) {
        return ReferenceResolution.parse(text, reference -> {
            StoredVersion v = subjects.getOrDefault(reference.subject(), new TreeMap<>()).get(reference.version());
            return v == null ? null : schemasById.get(v.id());
        });
    }

    private Version version(String subject, StoredVersion v) {
        SchemaText schema = schemasById.get(v.id());
        return new Version(subject, v.version(), v.id(), schema.schema(), schema.references());
    }

    private static StoredVersion liveVersionWith(NavigableMap<Integer, StoredVersion> versions, int id) {
        return versions.values().stream().filter(v -> v.id() == id && !v.deleted()).findFirst().orElse(null);
    }

    private List<Schema> liveSchemas(NavigableMap<Integer, StoredVersion> versions) {
        return versions.values().stream().filter(v -> !v.deleted()).map(v -> resolvedById.get(v.id())).toList();
    }

    /** The subject's versions that a caller may see: the live ones, or all with {@code deleted}; 40401 if none. */
    private NavigableMap<Integer, StoredVersion> visibleVersions(String subject, boolean deleted) {
        TreeMap<Integer, StoredVersion> versions = subjects.get(subject);
        NavigableMap<Integer, StoredVersion> visible = new TreeMap<>();
        if (versions != null) {
            versions.forEach((n, v) -> {
                if (deleted || !v.deleted()) {
                    visible.put(n, v);
                }
            });
        }
        if (visible.isEmpty()) {
            throw RegistryApiException.subjectNotFound(subject);
        }
        return visible;
    }

    private StoredVersion storedVersion(String subject, String versionSpec, boolean deleted) {
        NavigableMap<Integer, StoredVersion> versions = visibleVersions(subject, deleted);
        if (isLatest(versionSpec)) {
            return versions.lastEntry().getValue();
        }
        int number = versionNumber(versionSpec);
        StoredVersion v = versions.get(number);
        if (v == null) {
            throw RegistryApiException.versionNotFound(subject, number);
        }
        return v;
    }

    /** The ids whose references name version {@code version} of {@code subject}, held by some version. */
    private TreeSet<Integer> referrers(String subject, int version, boolean liveOnly) {
        TreeSet<Integer> ids = new TreeSet<>();
        subjects.values().forEach(versions -> versions.values().forEach(v -> {
            if ((!liveOnly || !v.deleted()) && schemasById.get(v.id()).references().stream()
                    .anyMatch(r -> r.subject().equals(subject) && r.version() == version)) {
                ids.add(v.id());
            }
        }));
        return ids;
    }

    /**
     * A soft delete must not take a version from under a live schema that references it; a permanent one not
     * from under any schema whose id still resolves.
     */
    private void requireUnreferenced(String subject, int version, boolean soft) {
        TreeSet<Integer> referrers = referrers(subject, version, soft);
        if (!referrers.isEmpty()) {
            throw RegistryApiException.referenceExists(subject, version, referrers);
        }
    }

    private void dropUnheldIds() {
        TreeSet<Integer> held = new TreeSet<>();
        subjects.values().forEach(versions -> versions.values().forEach(v -> held.add(v.id())));
        schemasById.keySet().removeIf(id -> {
            if (held.contains(id)) {
                return false;
            }
            idsBySchema.remove(schemasById.get(id));
            resolvedById.remove(id);
            return true;
        });
    }

    private static void requireWritable(String subject, RegistryMode mode) {
        if (mode == RegistryMode.READONLY) {
            throw RegistryApiException.operationNotPermitted("Subject '" + subject + "' is in read-only mode.");
        }
    }

    private static boolean isLatest(String versionSpec) {
        return "latest".equals(versionSpec) || "-1".equals(versionSpec);
    }

    private static int versionNumber(String versionSpec) {
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
}
