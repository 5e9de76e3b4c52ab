package io.paramhub.registry;

import org.apache.avro.Schema;

/** One version of a subject: its number, the schema's global id and the schema. */
record SchemaVersion(String subject, int version, int id, Schema schema, boolean deleted) {

    /** The schema as the registry stores and returns it. */
    String schemaText() {
        return schema.toString();
    }
}
