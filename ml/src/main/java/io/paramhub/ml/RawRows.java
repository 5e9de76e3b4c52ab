package io.paramhub.ml;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * Rows read from a table-like file (CSV, Avro) before they become a {@link Dataset}: the features as doubles,
 * the label as the file writes it, and the line (or record) each row came from, so that a bad label can be
 * reported where it is. Not thread-safe.
 */
final class RawRows {

    private final Path file;
    private final int features;
    private final LongFunction<String> labelLocation;
    private double[] x;
    private String[] labels;
    private long[] lines;
    private int size;

    /**
     * Empty rows of {@code features} features from {@code file}; {@code labelLocation} turns a row's line
     * (or record) into where its label is ({@code "17:14"}, {@code "record 17, field target"}).
     */
    RawRows(final Path file, final int features, final LongFunction<String> labelLocation) {
        this.file = file;
        this.features = features;
        this.labelLocation = labelLocation;
        this.x = new double[16 * features];
        this.labels = new String[16];
        this.lines = new long[16];
    }

    /** Adds a row: {@code values[from .. from + features)}, its label, and the line it was read from. */
    void add(final double[] values, final int from, final String label, final long line) {
        if (size == labels.length) {
            final int capacity = Math.max(16, size * 2);
            x = Arrays.copyOf(x, capacity * features);
            labels = Arrays.copyOf(labels, capacity);
            lines = Arrays.copyOf(lines, capacity);
        }
        System.arraycopy(values, from, x, size * features, features);
        labels[size] = label;
        lines[size] = line;
        size++;
    }

    /** The rows that {@code test} marks ({@code wanted} true) or does not, in order. */
    RawRows select(final boolean[] test, final boolean wanted) {
        final RawRows selected = new RawRows(file, features, labelLocation);
        for (int i = 0; i < size; i++) {
            if (test[i] == wanted) {
                selected.add(x, i * features, labels[i], lines[i]);
            }
        }
        return selected;
    }

    Path file() {
        return file;
    }

    int features() {
        return features;
    }

    int size() {
        return size;
    }

    /** Feature {@code j} of row {@code i}. */
    double value(final int i, final int j) {
        return x[i * features + j];
    }

    String label(final int i) {
        return labels[i];
    }

    /** An error about row {@code i}'s label, located where it is in the file. */
    DataFileException labelProblem(final int i, final String problem) {
        return new DataFileException(file, labelLocation.apply(lines[i]), problem);
    }
}
