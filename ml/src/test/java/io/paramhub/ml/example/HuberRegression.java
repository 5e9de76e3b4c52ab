package io.paramhub.ml.example;

import io.paramhub.ml.Dataset;
import io.paramhub.ml.Model;
import java.util.Random;

/**
 * The worked example of docs/models.md: a user's own model, linear regression with the Huber
 * loss (squared for residuals within {@code delta}, linear beyond), which outliers pull less.
 * Parameters: {@code inputs} weights, then the bias.
 */
public final class HuberRegression implements Model {

    private final int inputs;
    private final double delta;

    public HuberRegression(final int inputs, final double delta) {
        this.inputs = inputs;
        this.delta = delta;
    }

    @Override
    public String kind() {
        return "huber:" + delta;
    }

    @Override
    public int inputs() {
        return inputs;
    }

    @Override
    public int outputs() {
        return 1;
    }

    @Override
    public int parameterCount() {
        return inputs + 1;
    }

    @Override
    public float[] initialParameters(final long seed) {
        final Random random = new Random(seed);
        final float[] params = new float[parameterCount()];
        for (int i = 0; i < inputs; i++) {
            params[i] = (float) (0.01 * random.nextGaussian());
        }
        return params;
    }

    @Override
    public double accumulateGradient(
            final float[] params, final Dataset data, final int[] samples, final double[] gradientSum) {
        final float[] x = new float[inputs]; // one sample's features, read with copyRow
        double loss = 0;
        for (final int sample : samples) {
            data.copyRow(sample, x, 0);
            final double residual = output(params, x) - data.y()[sample];
            final double magnitude = Math.abs(residual);
            loss += magnitude <= delta ? 0.5 * residual * residual : delta * (magnitude - 0.5 * delta);
            final double slope = magnitude <= delta ? residual : delta * Math.signum(residual);
            for (int j = 0; j < inputs; j++) {
                gradientSum[j] += slope * x[j];
            }
            gradientSum[inputs] += slope;
        }
        return loss;
    }

    @Override
    public float predict(final float[] params, final Dataset data, final int sample) {
        final float[] x = new float[inputs];
        data.copyRow(sample, x, 0);
        return (float) output(params, x);
    }

    /** {@code w . x + b} in double, so that the loss is smooth to finite differences. */
    private double output(final float[] params, final float[] x) {
        double sum = params[inputs];
        for (int j = 0; j < inputs; j++) {
            sum += (double) params[j] * x[j];
        }
        return sum;
    }
}
