package io.paramhub.ml;

/**
 * Adam with bias correction (Kingma and Ba): state slot 0 is the first moment, slot 1 the second;
 * {@code p -= lr · m̂ / (sqrt(v̂) + epsilon)}.
 */
final class Adam implements Optimizer {

    /** Values a step works on at a time: its double scratch stays in the first-level cache. */
    private static final int BLOCK = 1024;

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
        final double[] moment1 = new double[BLOCK];
        final double[] moment2 = new double[BLOCK];
        // The same double arithmetic as one loop doing all of it, in four loops over a block: HotSpot 17
        // vectorizes the all-double third loop (two divisions and a square root a value), which one loop
        // mixing float and double does not: twice as fast on the CNN's 64K-value shards, the same bits.
        for (int base = 0; base < params.length; base += BLOCK) {
            final int length = Math.min(BLOCK, params.length - base);
            for (int j = 0; j < length; j++) {
                final double g = meanGradient[base + j];
                moment1[j] = beta1 * first[base + j] + (1 - beta1) * g;
                moment2[j] = beta2 * second[base + j] + (1 - beta2) * g * g;
            }
            for (int j = 0; j < length; j++) {
                first[base + j] = (float) moment1[j];
                second[base + j] = (float) moment2[j];
            }
            for (int j = 0; j < length; j++) {
                moment1[j] = rate * (moment1[j] / correction1) / (Math.sqrt(moment2[j] / correction2) + epsilon);
            }
            for (int j = 0; j < length; j++) {
                params[base + j] = (float) (params[base + j] - moment1[j]);
            }
        }
    }

    @Override
    public String toString() {
        return "adam(lr=" + learningRate + ", beta1=" + beta1 + ", beta2=" + beta2 + ", epsilon=" + epsilon + ")";
    }
}
