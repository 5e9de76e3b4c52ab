package io.paramhub.ml;

/** Room for the nonzero coefficients of one {@link RowOps#addWeighted} call and the rows they weight. */
final class Gather {

    final float[] coefficients;
    final float[][] rows;

    Gather(final int capacity) {
        coefficients = new float[capacity];
        rows = new float[capacity][];
    }
}
