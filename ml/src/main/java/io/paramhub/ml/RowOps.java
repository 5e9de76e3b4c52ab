package io.paramhub.ml;

import java.util.Arrays;

/**
 * The one kernel under the networks' layers: a row plus a weighted sum of other rows, each row its
 * own {@code float[]} indexed from 0.
 *
 * <p>Why rows and not offsets into one flat array: HotSpot's C2 (JDK 17) vectorizes
 * {@code t[j] += a * x[j]}, but not {@code t[to + j] += a * x[xo + j]}, since it cannot rule out that
 * {@code t} and {@code x} are one array whose two ranges overlap; that loop then runs scalar, about 5x
 * slower (docs/benchmarks.md, {@code LayerKernelBenchmark}). Four rows at a time ({@link #addWeighted})
 * read and write the target once for four multiply-adds, about twice the single row's speed again.
 * Java's float arithmetic is exact IEEE single precision, so vector and scalar iterations give the
 * same bits: a layer's result does not depend on how C2 compiled it.
 */
final class RowOps {

    private RowOps() {}

    /**
     * {@code target[j] += sum_m coefficients[cOffset + m] * rows[rOffset + m][j]} for {@code j < length},
     * {@code m < count}: four rows at a time, then one at a time, in the order of {@code m}.
     */
    static void addWeighted(
            final float[] coefficients,
            final int cOffset,
            final float[][] rows,
            final int rOffset,
            final int count,
            final float[] target,
            final int length) {
        int m = 0;
        for (; m + 3 < count; m += 4) {
            add4(
                    coefficients[cOffset + m],
                    rows[rOffset + m],
                    coefficients[cOffset + m + 1],
                    rows[rOffset + m + 1],
                    coefficients[cOffset + m + 2],
                    rows[rOffset + m + 2],
                    coefficients[cOffset + m + 3],
                    rows[rOffset + m + 3],
                    target,
                    length);
        }
        for (; m < count; m++) {
            add1(coefficients[cOffset + m], rows[rOffset + m], target, length);
        }
    }

    /** {@code target[j] += a * x[j]} for {@code j < length}. */
    static void add1(final float a, final float[] x, final float[] target, final int length) {
        for (int j = 0; j < length; j++) {
            target[j] += a * x[j];
        }
    }

    /** {@code target[j] += a0 x0[j] + a1 x1[j] + a2 x2[j] + a3 x3[j]} for {@code j < length}. */
    static void add4(
            final float a0,
            final float[] x0,
            final float a1,
            final float[] x1,
            final float a2,
            final float[] x2,
            final float a3,
            final float[] x3,
            final float[] target,
            final int length) {
        for (int j = 0; j < length; j++) {
            target[j] += a0 * x0[j] + a1 * x1[j] + a2 * x2[j] + a3 * x3[j];
        }
    }

    /** A new {@code rows x length} matrix. */
    static float[][] matrix(final int rows, final int length) {
        return new float[rows][length];
    }

    /** Sets every value of the first {@code rows} rows to 0. */
    static void clear(final float[][] matrix, final int rows) {
        for (int r = 0; r < rows; r++) {
            Arrays.fill(matrix[r], 0f);
        }
    }
}
