package io.paramhub.ml;

/**
 * Adam with bias correction (Kingma and Ba): state slot 0 is the first moment, slot 1 the second;
 * {@code p -= lr · m̂ / (sqrt(v̂) + epsilon)}.
 */
final class Adam implements Optimizer {

    private final double learningRate;
    private final double beta1;
    private final double beta2;
    private final double epsilon;

    Adam(final double learningRate, final double beta1, final double beta2, final double epsilon) {
        this.learningRate = OptimizerChecks.requirePositive("learning rate", learningRate);
        this.beta1 = OptimizerChecks.requireUnitInterval("beta1", beta1);
        this.beta2 = OptimizerChecks.requireUnitInterval("beta2", beta2);
        this.epsilon = OptimizerChecks.requirePositive("epsilon", epsilon);
    }

    @Override
    public int stateSlots() {
        return 2;
    }

    @Override
    public void step(
            final float[] params,
            final float[] meanGradient,
            final float[][] state,
            final long step,
            final double learningRateFactor) {
        OptimizerChecks.requireStep(this, params, meanGradient, state, step);
        final double rate = learningRate * OptimizerChecks.requireFactor(learningRateFactor);
        final float[] first = state[0];
        final float[] second = state[1];
        final double correction1 = 1 - Math.pow(beta1, step);
        final double correction2 = 1 - Math.pow(beta2, step);
        for (int i = 0; i < params.length; i++) {
            final double g = meanGradient[i];
            final double m = beta1 * first[i] + (1 - beta1) * g;
            final double v = beta2 * second[i] + (1 - beta2) * g * g;
            first[i] = (float) m;
            second[i] = (float) v;
            params[i] = (float) (params[i] - rate * (m / correction1) / (Math.sqrt(v / correction2) + epsilon));
        }
    }

    @Override
    public String toString() {
        return "adam(lr=" + learningRate + ", beta1=" + beta1 + ", beta2=" + beta2 + ", epsilon=" + epsilon + ")";
    }
}
