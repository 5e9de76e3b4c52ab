package io.paramhub.ml;

import java.util.Random;

/**
 * A generated regression problem with a known answer: {@code x ~ N(0, 1)},
 * {@code y = w·x + b + noise·N(0, 1)} with seeded true {@code w, b}, and the exact least-squares
 * optimum of its training set, so that a training run can be judged against the best RMSE a
 * linear model can reach.
 */
public final class LinearProblem {

    private final int features;
    private final double noise;
    private final double[] trueParameters;
    private final TrainTest data;
    private final double[] optimum;
    private final double optimalRmse;

    private LinearProblem(final int features, final double noise, final double[] trueParameters, final TrainTest data) {
        this.features = features;
        this.noise = noise;
        this.trueParameters = trueParameters;
        this.data = data;
        this.optimum = LeastSquares.solve(data.train());
        this.optimalRmse = LeastSquares.rmse(data.train(), optimum);
    }

    /**
     * Draws the true parameters, {@code samples} training rows and {@code samples / 4} test rows
     * (at least one) from one {@link Random} seeded with {@code seed}.
     *
     * @throws IllegalArgumentException unless {@code samples > features >= 1} and {@code noise >= 0}
     */
    public static LinearProblem generate(final int samples, final int features, final double noise, final long seed) {
        if (features < 1 || samples <= features) {
            throw new IllegalArgumentException(
                    "need samples > features >= 1, got " + samples + " samples of " + features + " features");
        }
        if (!(noise >= 0) || Double.isInfinite(noise)) {
            throw new IllegalArgumentException("noise must be >= 0 and finite, got " + noise);
        }
        final Random random = new Random(seed);
        final double[] truth = new double[features + 1];
        for (int j = 0; j <= features; j++) {
            truth[j] = random.nextGaussian();
        }
        final String name = "linear-n" + samples + "-d" + features;
        final Dataset train = draw(name + "-train", samples, truth, noise, random);
        final Dataset test = draw(name + "-test", Math.max(1, samples / 4), truth, noise, random);
        return new LinearProblem(features, noise, truth, new TrainTest(train, test));
    }

    private static Dataset draw(
            final String name, final int samples, final double[] truth, final double noise, final Random random) {
        final int d = truth.length - 1;
        final float[] x = new float[samples * d];
        final float[] y = new float[samples];
        for (int i = 0; i < samples; i++) {
            double target = truth[d];
            for (int j = 0; j < d; j++) {
                final float value = (float) random.nextGaussian();
                x[i * d + j] = value;
                target += truth[j] * value;
            }
            y[i] = (float) (target + noise * random.nextGaussian());
        }
        return new Dataset(name, d, x, y, 0);
    }

    /** The training set and a test set drawn from the same distribution. */
    public TrainTest data() {
        return data;
    }

    /** The number of features. */
    public int features() {
        return features;
    }

    /** The standard deviation of the noise added to the targets. */
    public double noise() {
        return noise;
    }

    /** The parameters {@code [w_0 .. w_{d-1}, b]} the data were generated from, a copy. */
    public double[] trueParameters() {
        return trueParameters.clone();
    }

    /**
     * The least-squares parameters {@code [w_0 .. w_{d-1}, b]} on the training set (as stored in
     * float), in the layout of {@link LinearRegression}; a copy.
     */
    public double[] optimum() {
        return optimum.clone();
    }

    /** The RMSE of {@link #optimum()} on the training set: the best a linear model can do there. */
    public double optimalRmse() {
        return optimalRmse;
    }
}
