package io.paramhub.schemas.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A schema registry held in memory, for unit tests and {@code TopologyTestDriver}: ids are global
 * and start at 1, the same schema always gets the same id, and registering it again under a subject
 * adds no version. It does not check compatibility.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {

    private final Map<Schema, Integer> idsBySchema = new HashMap<>();
    private final Map<Integer, Schema> schemasById = new HashMap<>();
    private final Map<String, List<Schema>> versionsBySubject = new HashMap<>();

    @Override
    public synchronized int register(final String subject, final Schema schema) {
        final int id = idsBySchema.computeIfAbsent(schema, s -> idsBySchema.size() + 1);
        schemasById.putIfAbsent(id, schema);
        final List<Schema> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
        if (!versions.contains(schema)) {
            versions.add(schema);
        }
        return id;
    }

    @Override
    public synchronized int lookupId(final String subject, final Schema schema) {
        final List<Schema> versions = versionsBySubject.get(subject);
        if (versions == null) {
            throw new SchemaRegistryException(
                    "Subject '" + subject + "' not found in the in-memory registry",
                    404,
                    SchemaRegistryException.SUBJECT_NOT_FOUND);
        }
        if (!versions.contains(schema)) {
            throw new SchemaRegistryException(
                    "Schema " + schema.getFullName() + " not registered under subject '" + subject
                            + "' in the in-memory registry",
                    404,
                    SchemaRegistryException.SCHEMA_NOT_FOUND);
        }
        return idsBySchema.get(schema);
    }

    @Override
    public synchronized Schema schemaById(final int id) {
        final Schema schema = schemasById.get(id);
        if (schema == null) {
            throw new SchemaRegistryException(
                    "Schema id " + id + " not found in the in-memory registry",
                    404,
                    SchemaRegistryException.SCHEMA_NOT_FOUND);
        }
        return schema;
    }

    @Override
    public synchronized RegisteredSchema latest(final String subject) {
        final List<Schema> versions = versionsBySubject.get(subject);
        if (versions == null || versions.isEmpty()) {
            throw new SchemaRegistryException(
                    "Subject '" + subject + "' not found in the in-memory registry",
                    404,
                    SchemaRegistryException.SUBJECT_NOT_FOUND);
        }
        final Schema schema = versions.get(versions.size() - 1);
        return new RegisteredSchema(idsBySchema.get(schema), schema);
    }

    /** Versions registered under {@code subject}, oldest first; empty when the subject is unknown. */
    public synchronized List<Schema> versions(final String subject) {
        return List.copyOf(versionsBySubject.getOrDefault(subject, List.of()));
    }
}
