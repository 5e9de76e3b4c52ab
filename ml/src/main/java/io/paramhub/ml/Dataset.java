package io.paramhub.ml;

import java.util.Arrays;

/**
 * In-memory labelled data set with row-major float features, shared read-only by models,
 * trainers and evaluators.
 *
 * <p>Sample {@code i} has features {@code x[i * features .. (i + 1) * features)} and target
 * {@code y[i]}: a class index stored as a float for classification ({@code classes > 0}), a real
 * value for regression ({@code classes == 0}). The arrays are not copied; treat them as immutable.
 */
public final class Dataset {

    private final String name;
    private final int features;
    private final float[] x;
    private final float[] y;
    private final int classes;

    /**
     * Wraps the arrays without copying them.
     *
     * @throws IllegalArgumentException if the lengths do not match, {@code features < 1},
     *     {@code classes} is negative or 1, or a classification label is not an integer in
     *     {@code [0, classes)}
     */
    public Dataset(final String name, final int features, final float[] x, final float[] y, final int classes) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("dataset name must not be blank");
        }
        if (features < 1) {
            throw new IllegalArgumentException("dataset " + name + ": features must be >= 1, got " + features);
        }
        if (x == null || y == null) {
            throw new IllegalArgumentException("dataset " + name + ": x and y must not be null");
        }
        if (classes < 0 || classes == 1) {
            throw new IllegalArgumentException(
                    "dataset " + name + ": classes must be 0 (regression) or >= 2, got " + classes);
        }
        if ((long) y.length * features != x.length) {
            throw new IllegalArgumentException("dataset " + name + ": x has " + x.length + " values, expected "
                    + y.length + " samples x " + features + " features = " + (long) y.length * features);
        }
        if (classes > 0) {
            requireLabels(name, y, classes);
        }
        this.name = name;
        this.features = features;
        this.x = x;
        this.y = y;
        this.classes = classes;
    }

    private static void requireLabels(final String name, final float[] y, final int classes) {
        for (int i = 0; i < y.length; i++) {
            final float label = y[i];
            if (label != (int) label || label < 0 || label >= classes) {
                throw new IllegalArgumentException("dataset " + name + ": label of sample " + i + " is " + label
                        + ", expected an integer in [0, " + classes + ")");
            }
        }
    }

    /** The number of samples. */
    public int size() {
        return y.length;
    }

    /** The number of features per sample. */
    public int features() {
        return features;
    }

    /** The number of classes, 0 for regression. */
    public int classes() {
        return classes;
    }

    /** Whether targets are class indices. */
    public boolean isClassification() {
        return classes > 0;
    }

    /** The row-major features, not a copy. */
    public float[] x() {
        return x;
    }

    /** The targets, not a copy. */
    public float[] y() {
        return y;
    }

    /**
     * The first {@code samples} samples (all of them when there are fewer), copied, named
     * {@code NAME-headN} with N the samples kept.
     *
     * @throws IllegalArgumentException if {@code samples < 1}
     */
    public Dataset head(final int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("dataset " + name + ": a head needs >= 1 sample, got " + samples);
        }
        final int kept = Math.min(samples, size());
        return new Dataset(
                name + "-head" + kept, features, Arrays.copyOf(x, kept * features), Arrays.copyOf(y, kept), classes);
    }

    /** A short name for logs and reports, such as {@code fashion-mnist-train}. */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "Dataset[" + name + ", " + size() + " x " + features
                + (classes > 0 ? ", " + classes + " classes]" : ", regression]");
    }
}
