package io.paramhub.ml;

import java.util.Random;

/** Argument checks shared by the {@link Model} implementations. */
final class ModelChecks {

    private ModelChecks() {}

    static void requireParams(final Model model, final float[] params) {
        if (params.length != model.parameterCount()) {
            throw new IllegalArgumentException(model.kind() + " model has " + model.parameterCount()
                    + " parameters, got a vector of " + params.length);
        }
    }

    static void requireData(final Model model, final Dataset data) {
        if (data.features() != model.inputs()) {
            throw new IllegalArgumentException(model.kind() + " model has " + model.inputs() + " inputs, data set "
                    + data.name() + " has " + data.features() + " features");
        }
    }

    static void requireClassification(final Model model, final Dataset data) {
        requireData(model, data);
        if (data.classes() != model.outputs()) {
            throw new IllegalArgumentException(model.kind() + " model has " + model.outputs() + " classes, data set "
                    + data.name() + " has " + data.classes());
        }
    }

    static void requireGradient(final Model model, final double[] gradientSum) {
        if (gradientSum.length != model.parameterCount()) {
            throw new IllegalArgumentException(model.kind() + " model has " + model.parameterCount()
                    + " parameters, got a gradient accumulator of " + gradientSum.length);
        }
    }

    static float[] gaussian(final int count, final long seed, final double scale) {
        final Random random = new Random(seed);
        final float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = (float) (scale * random.nextGaussian());
        }
        return values;
    }
}
