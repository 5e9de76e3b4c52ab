package io.paramhub.ml;

import java.util.List;

/**
 * Multinomial logistic regression with cross-entropy loss: parameters are the weights
 * {@code W} (one row of {@code inputs} per class, class-major) followed by the biases {@code b}
 * (one per class); the label of a sample is {@code (int) y}. As tensors: {@code weight [classes, inputs]} and
 * {@code bias [classes]}, those of a {@code torch.nn.Linear(inputs, classes)}.
 *
 * <p>{@link #accumulateGradient} is a worker's hot path: plain arrays, double accumulation and
 * one logits buffer and one row buffer (each sample's features, {@link Dataset#copyRow}) per call.
 */
public final class SoftmaxRegression implements Model {

    /** The name {@link Models#create} knows this model by. */
    public static final String KIND = "softmax";

    private static final double INITIAL_SCALE = 0.01;

    private final int inputs;
    private final int classes;

    /** A model of {@code inputs} features and {@code classes} classes. */
    public SoftmaxRegression(final int inputs, final int classes) {
        if (inputs < 1) {
            throw new IllegalArgumentException("softmax model needs >= 1 input, got " + inputs);
        }
        if (classes < 2) {
            throw new IllegalArgumentException("softmax model needs >= 2 classes, got " + classes);
        }
        if ((long) (inputs + 1) * classes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("softmax model of " + inputs + " x " + classes + " is too large");
        }
        this.inputs = inputs;
        this.classes = classes;
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
        return classes;
    }

    @Override
    public int parameterCount() {
        return (inputs + 1) * classes;
    }

    @Override
    public List<NamedTensor> tensors() {
        return List.of(NamedTensor.of("weight", classes, inputs), NamedTensor.of("bias", classes));
    }

    @Override
    public float[] initialParameters(final long seed) {
        return ModelChecks.gaussian(parameterCount(), seed, INITIAL_SCALE);
    }

    @Override
    public double accumulateGradient(
            final float[] params, final Dataset data, final int[] samples, final double[] gradientSum) {
        ModelChecks.requireParams(this, params);
        requireClassification(data);
        ModelChecks.requireGradient(this, gradientSum);
        final float[] y = data.y();
        final int d = inputs;
        final int k = classes;
        final int biasOffset = k * d;
        final double[] logits = new double[k];
        final float[] x = new float[d];
        double loss = 0;
        for (final int sample : samples) {
            data.copyRow(sample, x, 0);
            final int label = (int) y[sample];
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                final double z = params[biasOffset + c] + dot(params, c * d, x, 0, d);
                logits[c] = z;
                if (z > max) {
                    max = z;
                }
            }
            final double labelLogit = logits[label];
            double sum = 0;
            for (int c = 0; c < k; c++) {
                final double e = Math.exp(logits[c] - max);
                logits[c] = e;
                sum += e;
            }
            loss += Math.log(sum) - (labelLogit - max);
            final double inverse = 1.0 / sum;
            for (int c = 0; c < k; c++) {
                final double delta = logits[c] * inverse - (c == label ? 1.0 : 0.0);
                gradientSum[biasOffset + c] += delta;
                axpy(delta, x, 0, gradientSum, c * d, d);
            }
        }
        return loss;
    }

    @Override
    public float predict(final float[] params, final Dataset data, final int sample) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireData(this, data);
        final float[] row = new float[inputs];
        data.copyRow(sample, row, 0);
        return predict(params, row);
    }

    /** As {@link #predict(float[], Dataset, int)} predicts each, with one row buffer for the range. */
    @Override
    public void predict(
            final float[] params, final Dataset data, final int from, final int to, final float[] predictions) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireData(this, data);
        final float[] row = new float[inputs];
        for (int sample = from; sample < to; sample++) {
            data.copyRow(sample, row, 0);
            predictions[sample] = predict(params, row);
        }
    }

    /** The class of largest logit for the features {@code row[0 .. inputs)}. */
    private float predict(final float[] params, final float[] row) {
        final int biasOffset = classes * inputs;
        int best = 0;
        double bestLogit = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            final double z = params[biasOffset + c] + dot(params, c * inputs, row, 0, inputs);
            if (z > bestLogit) {
                bestLogit = z;
                best = c;
            }
        }
        return best;
    }

    private void requireClassification(final Dataset data) {
        ModelChecks.requireData(this, data);
        if (data.classes() != classes) {
            throw new IllegalArgumentException(
                    "softmax model has " + classes + " classes, data set " + data.name() + " has " + data.classes());
        }
    }

    /** Four independent sums break the dependency chain of a single double accumulator. */
    private static double dot(
            final float[] w, final int wOffset, final float[] x, final int xOffset, final int length) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < length; j += 4) {
            s0 += (double) w[wOffset + j] * x[xOffset + j];
            s1 += (double) w[wOffset + j + 1] * x[xOffset + j + 1];
            s2 += (double) w[wOffset + j + 2] * x[xOffset + j + 2];
            s3 += (double) w[wOffset + j + 3] * x[xOffset + j + 3];
        }
        for (; j < length; j++) {
            s0 += (double) w[wOffset + j] * x[xOffset + j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    private static void axpy(
            final double a,
            final float[] x,
            final int xOffset,
            final double[] target,
            final int targetOffset,
            final int length) {
        for (int j = 0; j < length; j++) {
            target[targetOffset + j] += a * x[xOffset + j];
        }
    }

    @Override
    public String toString() {
        return "SoftmaxRegression[inputs=" + inputs + ", classes=" + classes + "]";
    }
}
