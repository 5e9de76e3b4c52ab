package io.paramhub.ml;

import java.util.List;

/**
 * A differentiable model whose parameters live in one flat float vector, so that they can be
 * cut into shards, shipped as float32 and updated elementwise by an {@link Optimizer}.
 *
 * <p>Implementations are stateless and thread-safe: all state is in the parameter vector.
 */
public interface Model {

    /** The name {@link Models#create} knows this model by, such as {@code "softmax"}. */
    String kind();

    /** The number of input features. */
    int inputs();

    /** The number of outputs: 1 for regression, the number of classes for classification. */
    int outputs();

    /** The length of the parameter vector. */
    int parameterCount();

    /**
     * The named tensors of the parameter vector, in order, each row-major right after the one before, their
     * sizes adding up to {@link #parameterCount()}: the layout an exported model has. A model that does not
     * say is one tensor {@code parameters}.
     */
    default List<NamedTensor> tensors() {
        return List.of(NamedTensor.of("parameters", parameterCount()));
    }

    /**
     * Fresh parameters, the same for the same seed on every JVM.
     *
     * @param seed the seed of a {@link java.util.Random}
     */
    float[] initialParameters(long seed);

    /**
     * Adds to {@code gradientSum} the gradient of the loss summed over the given samples and
     * returns that summed loss.
     *
     * @param params the parameter vector, {@link #parameterCount()} long
     * @param data the data set the sample indices refer to
     * @param samples indices into {@code data}; repeats count repeatedly
     * @param gradientSum the accumulator, {@link #parameterCount()} long; added to, not cleared
     * @return the loss summed over {@code samples}
     */
    double accumulateGradient(float[] params, Dataset data, int[] samples, double[] gradientSum);

    /**
     * The gradient for the update of {@code clock} of a job seeded {@code seed}: as
     * {@link #accumulateGradient(float[], Dataset, int[], double[])}, with any training-time randomness
     * (dropout masks) drawn from (seed, clock, sample index) alone, so that whichever worker or thread
     * computes a sample computes the same gradient. Workers and the reference trainer call this one;
     * models without such randomness need not override it.
     */
    default double accumulateGradient(
            float[] params, Dataset data, int[] samples, double[] gradientSum, long seed, long clock) {
        return accumulateGradient(params, data, samples, gradientSum);
    }

    /** The prediction for one sample: the class index as a float, or the regression value. */
    float predict(float[] params, Dataset data, int sample);

    /**
     * The predictions of samples {@code [from, to)} of {@code data} into the same indices of {@code predictions}:
     * {@link #predict(float[], Dataset, int)}'s for each, which a model may compute faster together.
     */
    default void predict(
            final float[] params, final Dataset data, final int from, final int to, final float[] predictions) {
        for (int sample = from; sample < to; sample++) {
            predictions[sample] = predict(params, data, sample);
        }
    }
}
