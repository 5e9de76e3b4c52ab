package io.paramhub.worker;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.ml.ExampleException;
import io.paramhub.ml.ExampleFields;
import io.paramhub.ml.ExampleLabels;
import io.paramhub.schemas.registry.SchemaRegistryClient;

/**
 * Turns a value of a topic-mode job's data topic into a training example: the record of its writer schema read
 * by {@link DataTopicValues} (the Confluent wire format, the schema from the registry by id), the features and
 * label read by {@link ExampleFields}, the label made a target by {@link ExampleLabels}. A value that cannot be
 * an example raises an {@link DataTopicValues.Refusal} with the dead-letter reason; a registry that cannot be
 * reached raises the registry's error (the example is not bad, the worker stops and a restart reads it again).
 */
final class ExampleDecoder {

    private final DataTopicValues records;
    private final ExampleLabels labels;
    private final int inputs;
    private double[] values;

    ExampleDecoder(
            final SchemaRegistryClient registry,
            final ExampleFields fields,
            final ExampleLabels labels,
            final int inputs) {
        this.records = new DataTopicValues(registry, fields);
        this.labels = labels;
        this.inputs = inputs;
        this.values = new double[inputs];
    }

    /** The features (into {@code features}, {@code inputs} long) and the target of {@code value}. */
    float decode(final byte[] value, final float[] features) throws DataTopicValues.Refusal {
        final DataTopicValues.Read read = records.read(value);
        try {
            values = read.fields().features(read.record(), values);
            final int count = read.fields().count(read.record());
            if (count != inputs) {
                throw new DataTopicValues.Refusal(
                        DeadLetterReason.WRONG_LENGTH, count + " features, the job's model takes " + inputs);
            }
            for (int j = 0; j < inputs; j++) {
                features[j] = (float) values[j];
                if (!Float.isFinite(features[j])) {
                    throw new DataTopicValues.Refusal(
                            DeadLetterReason.NON_FINITE, "feature " + j + " is " + values[j] + ", beyond float32");
                }
            }
            return labels.target(read.fields().label(read.record()));
        } catch (final ExampleException e) {
            throw DataTopicValues.Refusal.of(e);
        }
    }
}
