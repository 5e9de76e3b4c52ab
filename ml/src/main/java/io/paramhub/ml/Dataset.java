package io.paramhub.ml;

import java.util.Arrays;
import java.util.Objects;

/**
 * In-memory labelled data set with row-major features, shared read-only by models, trainers and
 * evaluators.
 *
 * <p>Sample {@code i} has features {@code i * features .. (i + 1) * features)} and target
 * {@code y[i]}: a class index stored as a float for classification ({@code classes > 0}), a real
 * value for regression ({@code classes == 0}). The features are held in one of two storages: a
 * float each (the constructor), or a byte code each with a table of the 256 floats the codes stand
 * for ({@link #ofCodes}), a quarter of the memory for images of unsigned-byte pixels. Read a
 * sample's features with {@link #copyRow}, which serves both. The arrays are not copied; treat
 * them as immutable.
 */
public final class Dataset {

    /** The number of levels a byte code can stand for. */
    public static final int LEVELS = 256;

    private final String name;
    private final int features;
    /** One float per feature, or null when the features are {@link #codes}. */
    private final float[] x;
    /** One code per feature, or null when the features are {@link #x}. */
    private final byte[] codes;
    /** The float of each code {@code c & 0xff}, or null when the features are {@link #x}. */
    private final float[] levels;

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
        this(name, features, x, null, null, y, classes);
    }

    /**
     * A data set whose feature {@code j} of sample {@code i} is {@code levels[codes[i * features + j] & 0xff]}:
     * one byte per feature instead of four. Wraps the arrays without copying them.
     *
     * @throws IllegalArgumentException as the constructor does, or if {@code levels} does not hold 256 floats
     */
    public static Dataset ofCodes(
            final String name,
            final int features,
            final byte[] codes,
            final float[] levels,
            final float[] y,
            final int classes) {
        if (codes == null || levels == null) {
            throw new IllegalArgumentException("dataset " + name + ": codes and levels must not be null");
        }
        if (levels.length != LEVELS) {
            throw new IllegalArgumentException(
                    "dataset " + name + ": levels has " + levels.length + " values, expected " + LEVELS);
        }
        return new Dataset(name, features, null, codes, levels, y, classes);
    }

    private Dataset(
            final String name,
            final int features,
            final float[] x,
            final byte[] codes,
            final float[] levels,
            final float[] y,
            final int classes) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("dataset name must not be blank");
        }
        if (features < 1) {
            throw new IllegalArgumentException("dataset " + name + ": features must be >= 1, got " + features);
        }
        if ((x == null && codes == null) || y == null) {
            throw new IllegalArgumentException("dataset " + name + ": x and y must not be null");
        }
        if (classes < 0 || classes == 1) {
            throw new IllegalArgumentException(
                    "dataset " + name + ": classes must be 0 (regression) or >= 2, got " + classes);
        }
        final int values = x != null ? x.length : codes.length;
        if ((long) y.length * features != values) {
            throw new IllegalArgumentException("dataset " + name + ": " + (x != null ? "x" : "codes") + " has "
                    + values + " values, expected " + y.length + " samples x " + features + " features = "
                    + (long) y.length * features);
        }
        if (classes > 0) {
            requireLabels(name, y, classes);
        }
        this.name = name;
        this.features = features;
        this.x = x;
        this.codes = codes;
        this.levels = levels;
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

    /**
     * The row-major features: the backing array itself when the features are held as floats; when they are held
     * as byte codes ({@link #ofCodes}), a new array materialised on every call, four bytes per feature of the
     * whole set. Prefer {@link #copyRow} to read samples.
     */
    public float[] x() {
        if (x != null) {
            return x;
        }
        final float[] values = new float[codes.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = levels[codes[i] & 0xff];
        }
        return values;
    }

    /**
     * Copies the {@link #features} floats of sample {@code sample} to {@code dst[dstOffset ..]}, whichever the
     * storage.
     *
     * @throws IndexOutOfBoundsException if the sample or the destination range is out of bounds
     */
    public void copyRow(final int sample, final float[] dst, final int dstOffset) {
        Objects.checkIndex(sample, y.length);
        final int from = sample * features;
        if (x != null) {
            System.arraycopy(x, from, dst, dstOffset, features);
            return;
        }
        Objects.checkFromIndexSize(dstOffset, features, dst.length);
        for (int j = 0; j < features; j++) {
            dst[dstOffset + j] = levels[codes[from + j] & 0xff];
        }
    }

    /** Whether the features are held as byte codes ({@link #ofCodes}) rather than floats. */
    public boolean hasCodes() {
        return codes != null;
    }

    /** The targets, not a copy. */
    public float[] y() {
        return y;
    }

    /**
     * The first {@code samples} samples (all of them when there are fewer), copied in the same storage, named
     * {@code NAME-headN} with N the samples kept.
     *
     * @throws IllegalArgumentException if {@code samples < 1}
     */
    public Dataset head(final int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("dataset " + name + ": a head needs >= 1 sample, got " + samples);
        }
        final int kept = Math.min(samples, size());
        final String head = name + "-head" + kept;
        return new Dataset(
                head,
                features,
                x == null ? null : Arrays.copyOf(x, kept * features),
                x == null ? Arrays.copyOf(codes, kept * features) : null,
                levels,
                Arrays.copyOf(y, kept),
                classes);
    }

    /**
     * The samples {@code rows}, in that order, copied in the same storage, named {@code name}.
     *
     * @throws IndexOutOfBoundsException if a row is out of bounds
     */
    Dataset rows(final int[] rows, final String name) {
        final float[] targets = new float[rows.length];
        final float[] values = x == null ? null : new float[rows.length * features];
        final byte[] bytes = x == null ? new byte[rows.length * features] : null;
        for (int r = 0; r < rows.length; r++) {
            final int from = Objects.checkIndex(rows[r], y.length) * features;
            if (x != null) {
                System.arraycopy(x, from, values, r * features, features);
            } else {
                System.arraycopy(codes, from, bytes, r * features, features);
            }
            targets[r] = y[rows[r]];
        }
        return new Dataset(name, features, values, bytes, levels, targets, classes);
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
