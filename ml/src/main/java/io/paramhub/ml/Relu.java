package io.paramhub.ml;

/** The rectifier {@code max(0, v)} and its derivative, in place on the first values of an array. */
final class Relu {

    private Relu() {}

    /** {@code values[i] = max(0, values[i])} for {@code i < length}. */
    static void apply(final float[] values, final int length) {
        for (int i = 0; i < length; i++) {
            values[i] = Math.max(0f, values[i]);
        }
    }

    /** Zeroes {@code delta[i]} where the rectified {@code output[i]} is 0 (the unit was off). */
    static void backward(final float[] output, final float[] delta, final int length) {
        for (int i = 0; i < length; i++) {
            if (output[i] <= 0f) {
                delta[i] = 0f;
            }
        }
    }
}
