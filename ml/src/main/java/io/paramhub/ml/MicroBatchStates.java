package io.paramhub.ml;

import java.util.HashMap;
import java.util.Map;

/**
 * What a {@link StagePass} keeps of each micro-batch between its forward and its backward, and the check
 * that backward runs once per micro-batch, in ascending order.
 */
final class MicroBatchStates<T> {

    private final Map<Integer, T> states = new HashMap<>();
    private int nextBackward;

    /** Keeps the state of a micro-batch just run forward. */
    void put(final int micro, final T state) {
        if (micro < nextBackward || states.containsKey(micro)) {
            throw new IllegalStateException("micro-batch " + micro + " was already run forward");
        }
        states.put(micro, state);
    }

    /** The state of a micro-batch run forward. */
    T get(final int micro) {
        final T state = states.get(micro);
        if (state == null) {
            throw new IllegalStateException("micro-batch " + micro + " was not run forward");
        }
        return state;
    }

    /** Hands over the state of the micro-batch to run backward, which must be the next in order. */
    T takeForBackward(final int micro) {
        if (micro != nextBackward) {
            throw new IllegalStateException(
                    "backward must run micro-batches in order: expected " + nextBackward + ", got " + micro);
        }
        final T state = get(micro);
        states.remove(micro);
        nextBackward++;
        return state;
    }

    /** The rows {@code [start, start + count)} of a matrix, sharing them. */
    static float[][] rows(final float[][] matrix, final int start, final int count) {
        final float[][] rows = new float[count][];
        System.arraycopy(matrix, start, rows, 0, count);
        return rows;
    }

    /** Checks that a matrix received from a neighbouring stage has {@code n} rows of {@code width} values at least. */
    static void requireRows(final float[][] rows, final int n, final int width, final String what) {
        if (rows == null || rows.length != n) {
            throw new IllegalArgumentException(
                    what + ": need " + n + " rows, got " + (rows == null ? "none" : rows.length));
        }
        for (final float[] row : rows) {
            if (row.length < width) {
                throw new IllegalArgumentException(what + ": need rows of " + width + " values, got " + row.length);
            }
        }
    }

    /** Checks that stage 0, which reads the samples' features, was given no activations. */
    static void requireNoInput(final float[][] in) {
        if (in != null) {
            throw new IllegalArgumentException("stage 0 reads the samples' features, but was given input activations");
        }
    }
}
