package io.paramhub.stream;

import io.paramhub.ml.SplitMix64;

/**
 * Concept drift made visible: from example {@code from} on (ids counted from 0), each class label is replaced by
 * its image under a fixed permutation of the classes that moves every class (a derangement), so that a model
 * trained before the drift is wrong on every example after it until it learns again. The permutation is one cycle
 * through all classes, drawn by Sattolo's algorithm from a {@link SplitMix64} seeded with the stream's seed: for
 * i from n - 1 down to 1, swap i with {@code nextIndex(i)}. The same seed and class count give the same
 * permutation in any language.
 */
public final class LabelDrift {

    private static final LabelDrift NONE = new LabelDrift(Long.MAX_VALUE, new int[0]);

    private final long from;
    private final int[] permutation;

    private LabelDrift(final long from, final int[] permutation) {
        this.from = from;
        this.permutation = permutation;
    }

    /** No drift: every label as it is. */
    public static LabelDrift none() {
        return NONE;
    }

    /**
     * Labels of examples {@code from} and later permuted among {@code classes} classes by the derangement of
     * {@code seed}.
     *
     * @throws IllegalArgumentException for fewer than 2 classes or a negative {@code from}
     */
    public static LabelDrift derangement(final long from, final int classes, final long seed) {
        if (classes < 2) {
            throw new IllegalArgumentException(
                    "--drift-at needs a classification data set (2 classes or more), not " + classes + " classes");
        }
        if (from < 0) {
            throw new IllegalArgumentException("--drift-at must be >= 0, not " + from);
        }
        final int[] permutation = new int[classes];
        for (int c = 0; c < classes; c++) {
            permutation[c] = c;
        }
        final SplitMix64 random = new SplitMix64(seed);
        for (int i = classes - 1; i > 0; i--) {
            final int j = random.nextIndex(i);
            final int swapped = permutation[i];
            permutation[i] = permutation[j];
            permutation[j] = swapped;
        }
        return new LabelDrift(from, permutation);
    }

    /** The label of example {@code id}, whose data set label is {@code label}. */
    public int label(final long id, final int label) {
        return id >= from ? permutation[label] : label;
    }

    /** Whether labels are permuted from some example on. */
    public boolean drifts() {
        return permutation.length > 0;
    }

    /** The first example whose label is permuted; {@link Long#MAX_VALUE} without drift. */
    public long from() {
        return from;
    }

    /** Class c becomes {@code permutation()[c]}; empty without drift. A copy. */
    public int[] permutation() {
        return permutation.clone();
    }

    @Override
    public String toString() {
        if (!drifts()) {
            return "no drift";
        }
        final StringBuilder text =
                new StringBuilder("from example ").append(from).append(" on, class ");
        for (int c = 0; c < permutation.length; c++) {
            text.append(c == 0 ? "" : ", ").append(c).append(" -> ").append(permutation[c]);
        }
        return text.toString();
    }
}
