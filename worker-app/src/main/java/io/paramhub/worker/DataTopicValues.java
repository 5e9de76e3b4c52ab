package io.paramhub.worker;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.ml.ExampleException;
import io.paramhub.ml.ExampleFields;
import io.paramhub.ml.ExampleProblem;
import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.schemas.serde.WireFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads the values of a topic-mode job's data topic as Avro records of their producers' own schemas: the
 * Confluent wire format (magic byte 0, the writer schema's 4-byte id, Avro binary), the writer schema fetched
 * from the registry by id once, and how {@link ExampleFields} reads records of it. Shared by the workers'
 * {@link ExampleDecoder} and the submitter's {@link TopicProbe}; reads no topic itself. A value that is not a
 * record of a schema with the job's fields raises a {@link Refusal} with the dead-letter reason; a registry that
 * cannot be reached raises the registry's error (the value is not bad).
 */
final class DataTopicValues {

    private final SchemaRegistryClient registry;
    private final ExampleFields fields;
    private final Map<Integer, Reader> readers = new HashMap<>();
    private BinaryDecoder decoder;

    /** Records whose schemas come from {@code registry}, read with {@code fields}. */
    DataTopicValues(final SchemaRegistryClient registry, final ExampleFields fields) {
        this.registry = registry;
        this.fields = fields;
    }

    /** One value read: its record, and how to read the features and label of records of its schema. */
    record Read(GenericRecord record, ExampleFields.Reader fields) {}

    /** Why a value is not a training example. */
    static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        private final DeadLetterReason reason;

        Refusal(final DeadLetterReason reason, final String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        /** The refusal of a record whose fields {@code e} says are wrong, naming the field. */
        static Refusal of(final ExampleException e) {
            return new Refusal(
                    reasonOf(e.problem()), (e.field().isEmpty() ? "" : "field " + e.field() + ": ") + e.getMessage());
        }

        DeadLetterReason reason() {
            return reason;
        }
    }

    /** {@code value} as a record of its writer schema. */
    Read read(final byte[] value) throws Refusal {
        if (value == null || value.length < WireFormat.HEADER_SIZE || value[0] != WireFormat.MAGIC_BYTE) {
            throw new Refusal(
                    DeadLetterReason.MALFORMED,
                    value == null
                            ? "no value (a tombstone)"
                            : "not in the schema registry's wire format (magic byte 0, 4-byte schema id, Avro)");
        }
        final int id = ByteBuffer.wrap(value, 1, Integer.BYTES).getInt();
        final Reader reader = reader(id);
        try {
            decoder = DecoderFactory.get()
                    .binaryDecoder(value, WireFormat.HEADER_SIZE, value.length - WireFormat.HEADER_SIZE, decoder);
            return new Read(reader.datums().read(null, decoder), reader.fields());
        } catch (final IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new Refusal(DeadLetterReason.MALFORMED, "not Avro of its schema " + id + ": " + e.getMessage());
        }
    }

    private Reader reader(final int id) throws Refusal {
        final Reader known = readers.get(id);
        if (known != null) {
            return known;
        }
        final Schema schema;
        try {
            schema = registry.schemaById(id);
        } catch (final SchemaRegistryException e) {
            if (e.httpStatus() == 404) {
                throw new Refusal(DeadLetterReason.UNKNOWN_SCHEMA, "schema id " + id + " is not in the registry");
            }
            throw e;
        }
        final Reader reader;
        try {
            reader = new Reader(new GenericDatumReader<>(schema), fields.reader(schema));
        } catch (final ExampleException e) {
            throw new Refusal(DeadLetterReason.UNKNOWN_SCHEMA, "schema id " + id + ": " + e.getMessage());
        }
        readers.put(id, reader);
        return reader;
    }

    private record Reader(GenericDatumReader<GenericRecord> datums, ExampleFields.Reader fields) {}

    private static DeadLetterReason reasonOf(final ExampleProblem problem) {
        return switch (problem) {
            case SCHEMA -> DeadLetterReason.UNKNOWN_SCHEMA;
            case MALFORMED -> DeadLetterReason.MALFORMED;
            case WRONG_LENGTH -> DeadLetterReason.WRONG_LENGTH;
            case NON_FINITE -> DeadLetterReason.NON_FINITE;
            case UNKNOWN_LABEL -> DeadLetterReason.UNKNOWN_LABEL;
        };
    }
}
