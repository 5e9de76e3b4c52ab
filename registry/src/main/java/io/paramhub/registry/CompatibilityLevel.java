package io.paramhub.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/**
 * Confluent's compatibility levels, checked with Avro's reader/writer rules: BACKWARD means the new schema
 * can read data written with the previous one, FORWARD that the previous one can read data written with the
 * new one, FULL both; the transitive levels check every earlier version instead of only the latest.
 */
enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    /** The level of a registry, and of a subject without its own, until configured otherwise. */
    static final CompatibilityLevel DEFAULT = BACKWARD;

    private final boolean backward;
    private final boolean forward;
    private final boolean transitive;

    CompatibilityLevel(final boolean backward, final boolean forward, final boolean transitive) {
        this.backward = backward;
        this.forward = forward;
        this.transitive = transitive;
    }

    /** The level named {@code name}, in any case; empty for an unknown name or null. */
    static Optional<CompatibilityLevel> parse(final String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (final CompatibilityLevel level : values()) {
            if (level.name().equals(name.trim().toUpperCase(Locale.ROOT))) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }

    /**
     * Why {@code candidate} may not follow {@code previous} (oldest first) under this level: checked against
     * the latest version, or every version when transitive. Empty when compatible.
     */
    List<String> check(final Schema candidate, final List<SchemaVersion> previous) {
        if (previous.isEmpty()) {
            return List.of();
        }
        final List<SchemaVersion> against = transitive ? previous : List.of(previous.get(previous.size() - 1));
        final List<String> problems = new ArrayList<>();
        against.forEach(version -> problems.addAll(checkAgainst(candidate, version)));
        return problems;
    }

    /** Why {@code candidate} may not follow {@code version} under this level's direction. Empty when compatible. */
    List<String> checkAgainst(final Schema candidate, final SchemaVersion version) {
        final List<String> problems = new ArrayList<>();
        if (backward) {
            problems.addAll(incompatibilities(
                    candidate, version.schema(), "new schema cannot read version " + version.version()));
        }
        if (forward) {
            problems.addAll(incompatibilities(
                    version.schema(), candidate, "version " + version.version() + " cannot read the new schema"));
        }
        return problems;
    }

    private List<String> incompatibilities(final Schema reader, final Schema writer, final String direction) {
        final List<String> problems = new ArrayList<>();
        for (final Incompatibility incompatibility : SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
                .getResult()
                .getIncompatibilities()) {
            problems.add("{errorType:'" + incompatibility.getType() + "', description:'" + direction + " (" + this
                    + "): " + incompatibility.getMessage() + " at " + incompatibility.getLocation() + "'}");
        }
        return problems;
    }
}
