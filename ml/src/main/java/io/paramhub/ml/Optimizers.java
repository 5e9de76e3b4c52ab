package io.paramhub.ml;

/** Creates the optimizers a job spec can name. */
public final class Optimizers {

    private Optimizers() {}

    /**
     * SGD: {@code p -= lr·g} with no state when {@code momentum == 0}, otherwise heavy-ball
     * momentum {@code v = momentum·v + g; p -= lr·v} with one state slot.
     *
     * @throws IllegalArgumentException unless {@code learningRate > 0} and {@code 0 <= momentum < 1}
     */
    public static Optimizer sgd(final double learningRate, final double momentum) {
        return new Sgd(learningRate, momentum);
    }

    /**
     * Bias-corrected Adam with two state slots (first and second moment).
     *
     * @throws IllegalArgumentException unless {@code learningRate > 0}, {@code 0 <= beta1, beta2 < 1}
     *     and {@code epsilon > 0}
     */
    public static Optimizer adam(
            final double learningRate, final double beta1, final double beta2, final double epsilon) {
        return new Adam(learningRate, beta1, beta2, epsilon);
    }
}
