package io.paramhub.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the registry knows, rebuilt from the {@code _schemas} log: the versions of each subject, the
 * schema of each global id and the compatibility levels. Changed only by applying log records; read by
 * the HTTP handlers. Thread-safe.
 */
final class RegistryState {

    private static final Logger log = LoggerFactory.getLogger(RegistryState.class);

    private final Map<String, NavigableMap<Integer, SchemaVersion>> subjects = new TreeMap<>();
    private final Map<Integer, Schema> schemasById = new HashMap<>();
    private final Map<String, Integer> idsBySchemaText = new HashMap<>();
    private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
    private CompatibilityLevel globalLevel = CompatibilityLevel.DEFAULT;
    private int maxId;

    /** Records {@code version} as read from the log, replacing any earlier record of the same version. */
    synchronized void putVersion(final SchemaVersion version) {
        subjects.computeIfAbsent(version.subject(), s -> new TreeMap<>()).put(version.version(), version);
        final Schema earlier = schemasById.putIfAbsent(version.id(), version.schema());
        if (earlier != null && !earlier.equals(version.schema())) {
            // not from this registry's writer: another kind of registry, or an older one, writes to the topic too
            log.error(
                    "the schema log gives id {} to a second schema, subject: {}, version: {}; keeping the first",
                    version.id(),
                    version.subject(),
                    version.version());
        }
        idsBySchemaText.putIfAbsent(version.schemaText(), version.id());
        maxId = Math.max(maxId, version.id());
    }

    /** Forgets a version whose log record was deleted (a tombstone); its id stays resolvable. */
    synchronized void removeVersion(final String subject, final int version) {
        final NavigableMap<Integer, SchemaVersion> versions = subjects.get(subject);
        if (versions != null) {
            versions.remove(version);
        }
    }

    /** Sets the level of {@code subject}, or the global level when it is null; a null level clears it. */
    synchronized void putLevel(final String subject, final CompatibilityLevel level) {
        if (subject == null) {
            globalLevel = level == null ? CompatibilityLevel.DEFAULT : level;
        } else if (level == null) {
            subjectLevels.remove(subject);
        } else {
            subjectLevels.put(subject, level);
        }
    }

    /** The id the registry gives {@code schema}: its existing id, or the next unused one. */
    synchronized int idFor(final Schema schema) {
        return idsBySchemaText.getOrDefault(schema.toString(), maxId + 1);
    }

    /** The number the next version of {@code subject} gets; deleted versions' numbers are not reused. */
    synchronized int nextVersion(final String subject) {
        final NavigableMap<Integer, SchemaVersion> versions = subjects.get(subject);
        return versions == null || versions.isEmpty() ? 1 : versions.lastKey() + 1;
    }

    /** The live version of {@code subject} holding exactly {@code schema}. */
    synchronized Optional<SchemaVersion> find(final String subject, final Schema schema) {
        final Integer id = idsBySchemaText.get(schema.toString());
        return id == null
                ? Optional.empty()
                : liveVersions(subject).stream()
                        .filter(version -> version.id() == id)
                        .findFirst();
    }

    /** Subjects with at least one live version, sorted. */
    synchronized List<String> subjects() {
        return subjects.entrySet().stream()
                .filter(entry -> entry.getValue().values().stream().anyMatch(version -> !version.deleted()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Live versions of {@code subject}, oldest first; empty when the subject is unknown. */
    synchronized List<SchemaVersion> liveVersions(final String subject) {
        final NavigableMap<Integer, SchemaVersion> versions = subjects.get(subject);
        final List<SchemaVersion> live = new ArrayList<>();
        if (versions != null) {
            versions.values().stream().filter(version -> !version.deleted()).forEach(live::add);
        }
        return live;
    }

    /** The schema with global id {@code id}. */
    synchronized Optional<Schema> schemaById(final int id) {
        return Optional.ofNullable(schemasById.get(id));
    }

    synchronized CompatibilityLevel globalLevel() {
        return globalLevel;
    }

    /** The level set on {@code subject} itself, if any. */
    synchronized Optional<CompatibilityLevel> subjectLevel(final String subject) {
        return Optional.ofNullable(subjectLevels.get(subject));
    }

    /** The level that applies to {@code subject}: its own, else the global one. */
    synchronized CompatibilityLevel effectiveLevel(final String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }
}
