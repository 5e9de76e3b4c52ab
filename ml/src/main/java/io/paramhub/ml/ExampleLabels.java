package io.paramhub.ml;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A topic-mode job's labels as targets: for a classification, each label's class index (a whole number is the
 * index itself, {@code false}/{@code true} are 0 and 1, a text or enum label is its place among the job's class
 * names); for a regression, the number. Also learns the classes of a job from the labels of its first examples.
 */
public final class ExampleLabels {

    private final int classes;
    private final boolean regression;
    private final Map<String, Integer> names;

    private ExampleLabels(final int classes, final boolean regression, final List<String> names) {
        this.classes = classes;
        this.regression = regression;
        this.names = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            this.names.put(names.get(i), i);
        }
    }

    /** The targets of {@code spec}'s examples for a model of {@code outputs} outputs. */
    public static ExampleLabels of(final TopicSpec spec, final int outputs) {
        return new ExampleLabels(spec.regression() ? 0 : outputs, spec.regression(), spec.labels());
    }

    /**
     * The target of {@code label}: a class index as a float, or the regression value.
     *
     * @throws ExampleException ({@link ExampleProblem#UNKNOWN_LABEL}) for a label that is none of the classes, or a
     *     regression target that is not a finite number
     */
    public float target(final String label) {
        final String text = label.trim();
        if (regression) {
            final Double value = number(text);
            if (value == null || !Double.isFinite(value)) {
                throw unknown(text, "is not a finite number");
            }
            return value.floatValue();
        }
        if (!names.isEmpty()) {
            final Integer index = names.get(text);
            if (index == null) {
                throw unknown(text, "is not among the job's classes " + names.keySet());
            }
            return index;
        }
        final long index = classIndex(text);
        if (index < 0 || index >= classes) {
            throw unknown(text, "is not a class index in [0, " + classes + ")");
        }
        return index;
    }

    /**
     * The classes that {@code labels}, the label texts of a job's first examples, imply: when every one is a whole
     * number or a boolean, the largest + 1 (names empty); otherwise the distinct texts in sorted order.
     */
    public static Classes learn(final Collection<String> labels) {
        long largest = -1;
        boolean numeric = true;
        final TreeSet<String> distinct = new TreeSet<>();
        for (final String label : labels) {
            final String text = label.trim();
            distinct.add(text);
            final long index = classIndex(text);
            if (index < 0) {
                numeric = false;
            } else {
                largest = Math.max(largest, index);
            }
        }
        return numeric
                ? new Classes((int) Math.min(Integer.MAX_VALUE, largest + 1), List.of())
                : new Classes(distinct.size(), List.copyOf(distinct));
    }

    /** How many classes a job has, and their names (empty when labels are class indices). */
    public record Classes(int count, List<String> names) {}

    /** The class index a label text is as a number or boolean, or -1 when it is neither a whole number nor boolean. */
    private static long classIndex(final String text) {
        if (text.equals("false")) {
            return 0;
        }
        if (text.equals("true")) {
            return 1;
        }
        final Double value = number(text);
        if (value == null || value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE) {
            return -1;
        }
        return value.longValue();
    }

    private static Double number(final String text) {
        try {
            return Double.valueOf(text);
        } catch (final NumberFormatException e) {
            return null;
        }
    }

    private static ExampleException unknown(final String label, final String problem) {
        return new ExampleException(ExampleProblem.UNKNOWN_LABEL, "", "label '" + label + "' " + problem);
    }
}
