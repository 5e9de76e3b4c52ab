package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;

/** Test helper: compares a model's analytic gradient with central finite differences in double. */
final class GradientCheck {

    private static final double STEP = 1e-3;

    private GradientCheck() {}

    static void assertGradientMatchesFiniteDifferences(
            final Model model, final float[] params, final Dataset data, final int[] samples) {
        final double[] analytic = new double[model.parameterCount()];
        model.accumulateGradient(params, data, samples, analytic);
        for (int i = 0; i < params.length; i++) {
            final float[] plus = params.clone();
            final float[] minus = params.clone();
            plus[i] = (float) (params[i] + STEP);
            minus[i] = (float) (params[i] - STEP);
            final double numeric = (loss(model, plus, data, samples) - loss(model, minus, data, samples))
                    / ((double) plus[i] - minus[i]);
            assertThat(analytic[i])
                    .as("d loss / d param %d", i)
                    .isCloseTo(numeric, within(1e-5 + 1e-4 * Math.abs(numeric)));
        }
    }

    static double loss(final Model model, final float[] params, final Dataset data, final int[] samples) {
        return model.accumulateGradient(params, data, samples, new double[model.parameterCount()]);
    }

    static float[] gaussian(final Random random, final int count, final double scale) {
        final float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = (float) (scale * random.nextGaussian());
        }
        return values;
    }
}
