package io.paramhub.ml;

import java.util.Arrays;

/**
 * Sets a seeded fraction of a file's rows aside as its test set, the same way on every machine and in any
 * language: the row indices {@code 0..n-1} are shuffled by Fisher–Yates, for i from n - 1 down to 1 swapping
 * i with {@code nextIndex(i + 1)} of a {@link SplitMix64} seeded with {@code seed} (as {@link BatchPlan} does),
 * and the first {@code round(fraction × n)} indices of the shuffle, at least 1 and at most n - 1, are the test
 * rows. Both sets keep the rows in file order.
 */
public final class Holdout {

    private Holdout() {}

    /**
     * Which of {@code rows} rows are test rows.
     *
     * @throws IllegalArgumentException unless {@code rows >= 2} and {@code 0 < fraction < 1}
     */
    public static boolean[] testRows(final int rows, final double fraction, final long seed) {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("a holdout fraction must lie between 0 and 1, got " + fraction);
        }
        if (rows < 2) {
            throw new IllegalArgumentException("a holdout needs at least 2 rows, got " + rows);
        }
        final int count = (int) Math.min(rows - 1, Math.max(1, Math.round(fraction * rows)));
        final int[] order = new int[rows];
        Arrays.setAll(order, i -> i);
        final SplitMix64 random = new SplitMix64(seed);
        for (int i = rows - 1; i > 0; i--) {
            final int j = random.nextIndex(i + 1);
            final int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        final boolean[] test = new boolean[rows];
        for (int k = 0; k < count; k++) {
            test[order[k]] = true;
        }
        return test;
    }

    /** The rows of {@code data} that {@code test} marks ({@code wanted} true) or does not, in order, named {@code name}. */
    public static Dataset select(final Dataset data, final boolean[] test, final boolean wanted, final String name) {
        int count = 0;
        for (final boolean row : test) {
            count += row == wanted ? 1 : 0;
        }
        final int[] rows = new int[count];
        int at = 0;
        for (int i = 0; i < test.length; i++) {
            if (test[i] == wanted) {
                rows[at++] = i;
            }
        }
        return data.rows(rows, name);
    }
}
