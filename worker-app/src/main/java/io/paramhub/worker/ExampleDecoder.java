package io.paramhub.worker;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.ml.ExampleException;
import io.paramhub.ml.ExampleFields;
import io.paramhub.ml.ExampleLabels;
import io.paramhub.ml.ExampleProblem;
import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryException;
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
 * Turns a value of a topic-mode job's data topic into a training example: the Confluent wire format (magic byte
 * 0, the writer schema's id, Avro binary), the writer schema fetched from the registry by id, the features and
 * label read by {@link ExampleFields}, the label made a target by {@link ExampleLabels}. A value that cannot be
 * an example raises a {@link Refusal} with the dead-letter reason; a registry that cannot be reached raises the
 * registry's error (the example is not bad, the worker stops and a restart reads it again).
 */
final class ExampleDecoder {

    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final SchemaRegistryClient registry;
    private final ExampleFields fields;
    private final ExampleLabels labels;
    private final int inputs;
    private final Map<Integer, Reader> readers = new HashMap<>();
    private BinaryDecoder decoder;
    private double[] values;

    ExampleDecoder(
            final SchemaRegistryClient registry,
            final ExampleFields fields,
            final ExampleLabels labels,
            final int inputs) {
        this.registry = registry;
        this.fields = fields;
        this.labels = labels;
        this.inputs = inputs;
        this.values = new double[inputs];
    }

    /** Why a value is not a training example. */
    static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        private final DeadLetterReason reason;

        Refusal(final DeadLetterReason reason, final String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        DeadLetterReason reason() {
            return reason;
        }
    }

    /** The features (into {@code features}, {@code inputs} long) and the target of {@code value}. */
    float decode(final byte[] value, final float[] features) throws Refusal {
        if (value == null || value.length < HEADER || value[0] != MAGIC) {
            throw new Refusal(
                    DeadLetterReason.MALFORMED,
                    value == null
                            ? "no value (a tombstone)"
                            : "not in the schema registry's wire format (magic byte 0, 4-byte schema id, Avro)");
        }
        final int id = ByteBuffer.wrap(value, 1, 4).getInt();
        final Reader reader = reader(id);
        final GenericRecord record;
        try {
            decoder = DecoderFactory.get().binaryDecoder(value, HEADER, value.length - HEADER, decoder);
            record = reader.datums().read(null, decoder);
        } catch (final IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new Refusal(DeadLetterReason.MALFORMED, "not Avro of its schema " + id + ": " + e.getMessage());
        }
        try {
            values = reader.fields().features(record, values);
            final int count = reader.fields().count(record);
            if (count != inputs) {
                throw new Refusal(DeadLetterReason.WRONG_LENGTH, count + " features, the job's model takes " + inputs);
            }
            for (int j = 0; j < inputs; j++) {
                features[j] = (float) values[j];
                if (!Float.isFinite(features[j])) {
                    throw new Refusal(
                            DeadLetterReason.NON_FINITE, "feature " + j + " is " + values[j] + ", beyond float32");
                }
            }
            return labels.target(reader.fields().label(record));
        } catch (final ExampleException e) {
            throw new Refusal(
                    reason(e.problem()), (e.field().isEmpty() ? "" : "field " + e.field() + ": ") + e.getMessage());
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

    private static DeadLetterReason reason(final ExampleProblem problem) {
        return switch (problem) {
            case SCHEMA -> DeadLetterReason.UNKNOWN_SCHEMA;
            case MALFORMED -> DeadLetterReason.MALFORMED;
            case WRONG_LENGTH -> DeadLetterReason.WRONG_LENGTH;
            case NON_FINITE -> DeadLetterReason.NON_FINITE;
            case UNKNOWN_LABEL -> DeadLetterReason.UNKNOWN_LABEL;
        };
    }
}
