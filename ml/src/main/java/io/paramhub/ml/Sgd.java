package io.paramhub.ml;

/**
 * Stochastic gradient descent, with heavy-ball momentum when {@code momentum > 0}:
 * {@code v = momentum·v + g; p -= lr·v}, else {@code p -= lr·g}.
 */
final class Sgd implements Optimizer {

    private final double learningRate;
    private final double momentum;

    Sgd(final double learningRate, final double momentum) {
        this.learningRate = OptimizerChecks.requirePositive("learning rate", learningRate);
        this.momentum = OptimizerChecks.requireUnitInterval("momentum", momentum);
    }

    @Override
    public int stateSlots() {
        return momentum == 0 ? 0 : 1;
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
        if (momentum == 0) {
            for (int i = 0; i < params.length; i++) {
                params[i] = (float) (params[i] - rate * meanGradient[i]);
            }
            return;
        }
        final float[] velocity = state[0];
        for (int i = 0; i < params.length; i++) {
            final double v = momentum * velocity[i] + meanGradient[i];
            velocity[i] = (float) v;
            params[i] = (float) (params[i] - rate * v);
        }
    }

    @Override
    public String toString() {
        return "sgd(lr=" + learningRate + ", momentum=" + momentum + ")";
    }
}
