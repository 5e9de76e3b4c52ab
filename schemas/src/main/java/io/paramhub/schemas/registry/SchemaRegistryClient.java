package io.paramhub.schemas.registry;

import org.apache.avro.Schema;

/**
 * The part of a Confluent-compatible schema registry the serdes need: register a schema under a
 * subject, find its id, and fetch a writer schema by id. Implementations are thread-safe.
 */
public interface SchemaRegistryClient {

    /**
     * Registers {@code schema} under {@code subject} (or finds it, when already there) and returns its
     * global id. The same schema always gets the same id, whatever the subject.
     *
     * @throws SchemaRegistryException when the registry refuses the schema or cannot be reached
     */
    int register(String subject, Schema schema);

    /**
     * Returns the id of {@code schema} as registered under {@code subject}, without registering it.
     *
     * @throws SchemaRegistryException when the subject or the schema is not registered
     */
    int lookupId(String subject, Schema schema);

    /**
     * Returns the schema with global id {@code id}.
     *
     * @throws SchemaRegistryException when no schema has that id
     */
    Schema schemaById(int id);

    /**
     * Returns the id and schema of the latest version registered under {@code subject}, asked afresh each time.
     *
     * @throws SchemaRegistryException when the subject has no version
     */
    RegisteredSchema latest(String subject);

    /** A schema and its global id. */
    record RegisteredSchema(int id, Schema schema) {}
}
