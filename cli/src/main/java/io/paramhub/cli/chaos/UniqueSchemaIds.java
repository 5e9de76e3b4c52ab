package io.paramhub.cli.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * No schema id names two schemas on the registry's log ({@code _schemas}): a registry killed and started again
 * must not hand out an id twice, or records would decode silently wrong.
 */
final class UniqueSchemaIds implements Invariant {

    /** The registry's log, as the registry app names it by default. */
    static final String SCHEMAS_TOPIC = "_schemas";

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "schema-ids-unique";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final Map<Integer, Set<String>> schemas = new TreeMap<>();
        final List<String> unreadable = new ArrayList<>();
        try {
            RawTopic.readAll(run.client(), SCHEMAS_TOPIC, record -> {
                if (record.value() == null) {
                    return;
                }
                try {
                    final JsonNode value = JSON.readTree(new String(record.value(), StandardCharsets.UTF_8));
                    if (value.has("id") && value.has("schema")) {
                        // the same schema may be written with other white space: compare it parsed
                        final String schema =
                                JSON.readTree(value.get("schema").asText()).toString();
                        schemas.computeIfAbsent(value.get("id").asInt(), id -> new HashSet<>())
                                .add(schema);
                    }
                } catch (final IOException e) {
                    unreadable.add("offset " + record.offset());
                }
            });
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read " + SCHEMAS_TOPIC + ": " + e.getMessage());
        }
        final List<Integer> clashes = schemas.entrySet().stream()
                .filter(entry -> entry.getValue().size() > 1)
                .map(Map.Entry::getKey)
                .toList();
        if (!clashes.isEmpty()) {
            return Verdict.fail(name(), "ids naming two schemas: " + clashes);
        }
        if (schemas.isEmpty()) {
            return Verdict.fail(
                    name(),
                    "no schema on " + SCHEMAS_TOPIC + (unreadable.isEmpty() ? "" : ", unreadable: " + unreadable));
        }
        return Verdict.pass(name(), schemas.size() + " ids, each one schema");
    }
}
