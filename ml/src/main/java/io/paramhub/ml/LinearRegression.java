package io.paramhub.ml;

import java.util.List;

/**
 * Linear regression with squared loss: parameters {@code [w_0 .. w_{d-1}, b]}, prediction
 * {@code w·x + b}, per-sample loss {@code 0.5 (w·x + b - y)^2}. As tensors: {@code weight [1, d]} and
 * {@code bias [1]}, those of a {@code torch.nn.Linear(d, 1)}.
 */
public final class LinearRegression implements Model {

    /** The name {@link Models#create} knows this model by. */
    public static final String KIND = "linear";

    private static final double INITIAL_SCALE = 0.01;

    private final int inputs;

    /** A model of {@code inputs} features. */
    public LinearRegression(final int inputs) {
        if (inputs < 1) {
            throw new IllegalArgumentException("linear model needs >= 1 input, got " + inputs);
        }
        this.inputs = inputs;
    }

    @Override
    public String kind() {
        return KIND;
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
    public List<NamedTensor> tensors() {
        return List.of(NamedTensor.of("weight", 1, inputs), NamedTensor.of("bias", 1));
    }

    @Override
    public float[] initialParameters(final long seed) {
        return ModelChecks.gaussian(parameterCount(), seed, INITIAL_SCALE);
    }

    @Override
    public double accumulateGradient(
            final float[] params, final Dataset data, final int[] samples, final double[] gradientSum) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireData(this, data);
        ModelChecks.requireGradient(this, gradientSum);
        final float[] y = data.y();
        final int d = inputs;
        final float[] x = new float[d];
        double loss = 0;
        double biasGradient = 0;
        for (final int sample : samples) {
            data.copyRow(sample, x, 0);
            final double residual = output(params, x, 0) - y[sample];
            loss += 0.5 * residual * residual;
            biasGradient += residual;
            for (int j = 0; j < d; j++) {
                gradientSum[j] += residual * x[j];
            }
        }
        gradientSum[d] += biasGradient;
        return loss;
    }

    @Override
    public float predict(final float[] params, final Dataset data, final int sample) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireData(this, data);
        final float[] x = new float[inputs];
        data.copyRow(sample, x, 0);
        return (float) output(params, x, 0);
    }

    private double output(final float[] params, final float[] x, final int offset) {
        double sum = params[inputs];
        for (int j = 0; j < inputs; j++) {
            sum += (double) params[j] * x[offset + j];
        }
        return sum;
    }

    @Override
    public String toString() {
        return "LinearRegression[inputs=" + inputs + "]";
    }
}
