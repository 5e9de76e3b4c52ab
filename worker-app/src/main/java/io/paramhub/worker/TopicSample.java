package io.paramhub.worker;

import io.paramhub.ml.ExampleException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * What the first records of a data topic say, as the submitter learns it ({@link TopicProbe}): the feature count
 * of the first record that can be read as an example, the label texts of every such record, and the symbols of
 * the label's enum when it is one. A record that cannot be read (not the wire format, a schema without the job's
 * fields, a null or non-finite value) is counted and skipped, the first such problem kept: the workers set such
 * records aside later. Reads no topic itself.
 */
final class TopicSample {

    private final DataTopicValues records;
    private final Map<String, Integer> labels = new TreeMap<>();
    private int read;
    private int decoded;
    private int inputs = -1;
    private List<String> symbols = List.of();
    private String firstProblem = "";
    private double[] values = new double[0];

    /** A sample of records read with {@code records}. */
    TopicSample(final DataTopicValues records) {
        this.records = records;
    }

    /**
     * What a sample saw: {@code records} read, {@code decoded} of them examples, the feature count of the first
     * example (-1 when none), how often each label text occurred, the first example's label enum symbols (empty
     * when the label is not an enum) and the first problem of a record that was not an example (empty when none).
     */
    record Seen(
            int records,
            int decoded,
            int inputs,
            Map<String, Integer> labels,
            List<String> enumSymbols,
            String firstProblem) {

        /** Nothing read. */
        static final Seen NOTHING = new Seen(0, 0, -1, Map.of(), List.of(), "");

        /** Copies the collections. */
        Seen {
            labels = Map.copyOf(labels);
            enumSymbols = List.copyOf(enumSymbols);
        }
    }

    /** Adds the record at {@code offset} of {@code partition} holding {@code value}. */
    void add(final int partition, final long offset, final byte[] value) {
        read++;
        try {
            final DataTopicValues.Read example = records.read(value);
            values = example.fields().features(example.record(), values);
            final String label = example.fields().label(example.record()).trim();
            if (inputs < 0) {
                inputs = example.fields().count(example.record());
                final Schema labelSchema = example.fields().labelSchema();
                symbols = labelSchema.getType() == Schema.Type.ENUM ? labelSchema.getEnumSymbols() : List.of();
            }
            labels.merge(label, 1, Integer::sum);
            decoded++;
        } catch (final DataTopicValues.Refusal refusal) {
            problem(partition, offset, refusal.reason() + ": " + refusal.getMessage());
        } catch (final ExampleException e) {
            final DataTopicValues.Refusal refusal = DataTopicValues.Refusal.of(e);
            problem(partition, offset, refusal.reason() + ": " + refusal.getMessage());
        }
    }

    private void problem(final int partition, final long offset, final String problem) {
        if (firstProblem.isEmpty()) {
            firstProblem = "partition " + partition + ", offset " + offset + ": " + problem;
        }
    }

    /** Records added so far. */
    int records() {
        return read;
    }

    /** What the records added so far say. */
    Seen seen() {
        return new Seen(read, decoded, inputs, labels, symbols, firstProblem);
    }
}
