package io.paramhub.ml;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The classes of a training set's labels, each label mapped to its index in sorted order: when every label is a
 * whole number ({@code 1}, {@code 1.0} and {@code 1e0} are the same class, written {@code 1}) by value, otherwise
 * every label as text, in {@link String#compareTo} order. Labels are trimmed; an empty one is an error.
 */
final class ClassLabels {

    /** More classes than a model may have outputs is a regression target given without {@code task=regression}. */
    static final int MAX_CLASSES = 1 << 16;

    private final boolean numeric;
    private final Map<String, Integer> index;
    private final List<String> names;

    private ClassLabels(final boolean numeric, final List<String> names) {
        this.numeric = numeric;
        this.names = List.copyOf(names);
        this.index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
    }

    /**
     * The classes of {@code rows}' labels.
     *
     * @throws DataFileException at the first empty label, at the first number that is not whole when every label
     *     is a number (a numeric target needs {@code task=regression}), or when there are fewer than 2 classes or
     *     more than {@link #MAX_CLASSES}
     */
    static ClassLabels of(final RawRows rows) {
        boolean numeric = true;
        int fractional = -1;
        for (int i = 0; i < rows.size(); i++) {
            final String label = rows.label(i).trim();
            if (label.isEmpty()) {
                throw rows.labelProblem(i, "empty label");
            }
            final Double value = number(label);
            if (value == null) {
                numeric = false;
            } else if (fractional < 0 && whole(value) == null) {
                fractional = i;
            }
        }
        if (numeric && fractional >= 0) {
            throw rows.labelProblem(
                    fractional,
                    "label '" + rows.label(fractional).trim() + "' is a number but not a whole one: "
                            + "for a numeric target give task=regression");
        }
        final List<String> names = numeric ? wholeNumbers(rows) : texts(rows);
        if (names.size() < 2 || names.size() > MAX_CLASSES) {
            throw new DataFileException(
                    rows.file(),
                    "",
                    "the training set has " + names.size() + " classes, a classifier needs 2 to " + MAX_CLASSES
                            + (names.size() > 2 ? " (for a numeric target give task=regression)" : ""));
        }
        return new ClassLabels(numeric, names);
    }

    /** The class of {@code label}, or -1 when the training set has no such class. */
    int indexOf(final String label) {
        final String trimmed = label.trim();
        if (!numeric) {
            return index.getOrDefault(trimmed, -1);
        }
        final Double value = number(trimmed);
        final Long whole = value == null ? null : whole(value);
        return whole == null ? -1 : index.getOrDefault(Long.toString(whole), -1);
    }

    /** The labels, class 0 first. */
    List<String> names() {
        return names;
    }

    private static List<String> wholeNumbers(final RawRows rows) {
        final TreeMap<Long, String> sorted = new TreeMap<>();
        for (int i = 0; i < rows.size(); i++) {
            final long value = whole(number(rows.label(i).trim()));
            sorted.put(value, Long.toString(value));
        }
        return new ArrayList<>(sorted.values());
    }

    private static List<String> texts(final RawRows rows) {
        final TreeSet<String> sorted = new TreeSet<>();
        for (int i = 0; i < rows.size(); i++) {
            sorted.add(rows.label(i).trim());
        }
        return new ArrayList<>(sorted);
    }

    private static Double number(final String text) {
        try {
            final double value = Double.parseDouble(text);
            return Double.isFinite(value) ? value : null;
        } catch (final NumberFormatException e) {
            return null;
        }
    }

    private static Long whole(final double value) {
        return value == Math.rint(value) && Math.abs(value) < 0x1p53 ? (long) value : null;
    }
}
