package io.paramhub.ml;

import java.util.Arrays;
import java.util.Random;

/**
 * A fully connected layer {@code out = W in + b} inside a model's flat parameter vector: {@code W}
 * row-major ({@code outputs} rows of {@code inputs}) at {@link #weightOffset}, then {@code b}.
 *
 * <p>Every operation works on a block of samples stored contiguously ({@code [sample][unit]}) and
 * keeps one weight row in cache while it visits all samples of the block, since the weights (up to
 * megabytes) are the data that does not fit in cache.
 */
final class DenseLayer {

    private final int inputs;
    private final int outputs;
    private final int weightOffset;

    /** A layer of {@code inputs} to {@code outputs} whose parameters start at {@code weightOffset}. */
    DenseLayer(final int inputs, final int outputs, final int weightOffset) {
        this.inputs = inputs;
        this.outputs = outputs;
        this.weightOffset = weightOffset;
    }

    int inputs() {
        return inputs;
    }

    int outputs() {
        return outputs;
    }

    /** The number of parameters: weights and biases. */
    int parameterCount() {
        return (inputs + 1) * outputs;
    }

    /** The index just past this layer's parameters. */
    int end() {
        return weightOffset + parameterCount();
    }

    private int biasOffset() {
        return weightOffset + inputs * outputs;
    }

    /** He initialisation: weights from N(0, 2 / inputs), biases 0. */
    void initialize(final float[] params, final Random random) {
        final double scale = Math.sqrt(2.0 / inputs);
        for (int i = weightOffset; i < biasOffset(); i++) {
            params[i] = (float) (scale * random.nextGaussian());
        }
    }

    /** {@code out[s] = W in[s] + b} for the first {@code block} samples. */
    void forward(final float[] params, final float[] in, final float[] out, final int block) {
        final int bias = biasOffset();
        for (int o = 0; o < outputs; o++) {
            final int row = weightOffset + o * inputs;
            final float b = params[bias + o];
            for (int s = 0; s < block; s++) {
                out[s * outputs + o] = b + VectorOps.dot(params, row, in, s * inputs, inputs);
            }
        }
    }

    /**
     * Adds the weight and bias gradients {@code sum_s delta[s] in[s]^T} and {@code sum_s delta[s]}
     * to {@code gradient}, a float accumulator laid out like the parameters.
     */
    void accumulateGradient(final float[] in, final float[] delta, final float[] gradient, final int block) {
        final int bias = biasOffset();
        for (int o = 0; o < outputs; o++) {
            final int row = weightOffset + o * inputs;
            float biasSum = 0;
            for (int s = 0; s < block; s++) {
                final float d = delta[s * outputs + o];
                if (d != 0) {
                    VectorOps.axpy(d, in, s * inputs, gradient, row, inputs);
                    biasSum += d;
                }
            }
            gradient[bias + o] += biasSum;
        }
    }

    /** {@code deltaIn[s] = W^T delta[s]}, overwriting {@code deltaIn}. */
    void backpropagate(final float[] params, final float[] delta, final float[] deltaIn, final int block) {
        Arrays.fill(deltaIn, 0, block * inputs, 0f);
        for (int o = 0; o < outputs; o++) {
            final int row = weightOffset + o * inputs;
            for (int s = 0; s < block; s++) {
                final float d = delta[s * outputs + o];
                if (d != 0) {
                    VectorOps.axpy(d, params, row, deltaIn, s * inputs, inputs);
                }
            }
        }
    }
}
