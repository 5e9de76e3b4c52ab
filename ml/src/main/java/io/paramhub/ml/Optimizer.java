package io.paramhub.ml;

/**
 * An elementwise update rule applied to a parameter slice, so that each shard of a model can be
 * updated on its own with its own state and give the same result as an update of the whole vector.
 */
public interface Optimizer {

    /** How many state vectors (each as long as the slice) the rule keeps: 0 for SGD, 2 for Adam. */
    int stateSlots();

    /**
     * One in-place update, computed in double and stored as float.
     *
     * @param params a contiguous slice of the parameters, updated in place
     * @param meanGradient the mean gradient for that slice, as long as {@code params}
     * @param state {@link #stateSlots()} vectors as long as {@code params}, zero before the first
     *     step, owned by the caller and updated in place
     * @param step the 1-based count of updates including this one
     */
    default void step(float[] params, float[] meanGradient, float[][] state, long step) {
        step(params, meanGradient, state, step, 1.0);
    }

    /**
     * {@link #step(float[], float[], float[][], long)} with the learning rate multiplied by
     * {@code learningRateFactor}, as a {@link LearningRateSchedule} says for the update's clock.
     *
     * @param learningRateFactor in (0, 1] for the schedules ParamHub has; 1 is the configured rate
     */
    void step(float[] params, float[] meanGradient, float[][] state, long step, double learningRateFactor);
}
