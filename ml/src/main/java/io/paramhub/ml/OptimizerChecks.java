package io.paramhub.ml;

/** Argument checks shared by the {@link Optimizer} implementations. */
final class OptimizerChecks {

    private OptimizerChecks() {}

    static void requireStep(
            final Optimizer optimizer,
            final float[] params,
            final float[] meanGradient,
            final float[][] state,
            final long step) {
        if (meanGradient.length != params.length) {
            throw new IllegalArgumentException(
                    "gradient has " + meanGradient.length + " values, parameters " + params.length);
        }
        if (state.length != optimizer.stateSlots()) {
            throw new IllegalArgumentException(
                    optimizer + " needs " + optimizer.stateSlots() + " state slots, got " + state.length);
        }
        for (int k = 0; k < state.length; k++) {
            if (state[k].length != params.length) {
                throw new IllegalArgumentException(
                        "state slot " + k + " has " + state[k].length + " values, parameters " + params.length);
            }
        }
        if (step < 1) {
            throw new IllegalArgumentException("step is 1-based, got " + step);
        }
    }

    static double requireFactor(final double factor) {
        if (!(factor >= 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("learning rate factor must be >= 0 and finite, got " + factor);
        }
        return factor;
    }

    static double requirePositive(final String name, final double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
        }
        return value;
    }

    static double requireUnitInterval(final String name, final double value) {
        if (!(value >= 0 && value < 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1), got " + value);
        }
        return value;
    }
}
