package io.paramhub.topology.aggregator;

import io.paramhub.ml.GradientSum;

/**
 * A checked gradient's values as its record carried them: a worker's own gradient in float32 ({@code narrow}), or
 * a host's sum in float64 ({@code wide}: its workers' float32 gradients added in double, not rounded). Exactly one
 * of the two is set.
 */
record GradientValues(float[] narrow, double[] wide) {

    static GradientValues of(final float[] values) {
        return new GradientValues(values, null);
    }

    static GradientValues of(final double[] values) {
        return new GradientValues(null, values);
    }

    /** Adds these values, the sum over {@code samples} samples, to {@code sum}. */
    void addTo(final GradientSum sum, final int samples) {
        if (wide == null) {
            sum.add(narrow, samples);
        } else {
            sum.add(wide, samples);
        }
    }

    /** These values divided by {@code divisor}, each rounded to float32 once. */
    float[] dividedBy(final int divisor) {
        if (wide != null) {
            final float[] quotient = new float[wide.length];
            for (int i = 0; i < quotient.length; i++) {
                quotient[i] = (float) (wide[i] / divisor);
            }
            return quotient;
        }
        final float[] quotient = new float[narrow.length];
        for (int i = 0; i < quotient.length; i++) {
            quotient[i] = (float) ((double) narrow[i] / divisor);
        }
        return quotient;
    }
}
