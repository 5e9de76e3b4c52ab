package io.paramhub.ml;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A fully connected layer {@code out = W in + b} inside a model's flat parameter vector: {@code W}
 * row-major ({@code outputs} rows of {@code inputs}) at {@link #weightOffset}, then {@code b}.
 *
 * <p>Training works on a block of samples, one row ({@code float[]}) per sample, and on copies of
 * {@code W} as rows and as columns taken once per gradient call, so that every inner loop is a
 * {@link RowOps} weighted sum of rows that C2 vectorizes, and inputs or deltas that are 0 (after ReLU,
 * dropout or max pooling, often half or more) are skipped. {@link #forwardOne} is the plain
 * dot-product form for one sample, for predictions.
 */
final class DenseLayer {

    private final int inputs;
    private final int outputs;
    private final int weightOffset;
    private final int biasOffset;

    /** A layer of {@code inputs} to {@code outputs} whose parameters start at {@code weightOffset}. */
    DenseLayer(final int inputs, final int outputs, final int weightOffset) {
        this(inputs, outputs, weightOffset, weightOffset + inputs * outputs);
    }

    private DenseLayer(final int inputs, final int outputs, final int weightOffset, final int biasOffset) {
        this.inputs = inputs;
        this.outputs = outputs;
        this.weightOffset = weightOffset;
        this.biasOffset = biasOffset;
    }

    /**
     * The output units {@code [from, to)} of this layer as a layer of their own, on the same parameters
     * (their rows of {@code W} and their biases), for a pipeline stage that computes only those units; its
     * unit {@code u} is this layer's unit {@code from + u}. Per unit, it computes the same bits as this layer.
     */
    DenseLayer units(final int from, final int to) {
        if (from < 0 || to > outputs || from >= to) {
            throw new IllegalArgumentException("units [" + from + ", " + to + ") of a layer of " + outputs);
        }
        return new DenseLayer(inputs, to - from, weightOffset + from * inputs, biasOffset + from);
    }

    /** Where the weights lie in the parameter vector. */
    ParameterRange weightRange() {
        return new ParameterRange(weightOffset, weightOffset + inputs * outputs);
    }

    /** Where the biases lie in the parameter vector. */
    ParameterRange biasRange() {
        return new ParameterRange(biasOffset, biasOffset + outputs);
    }

    /** Its tensors {@code PREFIX.weight [outputs, inputs]} and {@code PREFIX.bias [outputs]}, as a torch.nn.Linear's. */
    List<NamedTensor> tensors(final String prefix) {
        return List.of(NamedTensor.of(prefix + ".weight", outputs, inputs), NamedTensor.of(prefix + ".bias", outputs));
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

    /** The index just past this layer's parameters (of a whole layer, not of {@link #units}). */
    int end() {
        return weightOffset + parameterCount();
    }

    private int biasOffset() {
        return biasOffset;
    }

    /** He initialisation: weights from N(0, 2 / inputs), biases 0. */
    void initialize(final float[] params, final Random random) {
        final double scale = Math.sqrt(2.0 / inputs);
        for (int i = weightOffset; i < biasOffset(); i++) {
            params[i] = (float) (scale * random.nextGaussian());
        }
    }

    /** Copies {@code W} into {@code rows} ({@code [output][input]}). */
    void weightRows(final float[] params, final float[][] rows) {
        for (int o = 0; o < outputs; o++) {
            System.arraycopy(params, weightOffset + o * inputs, rows[o], 0, inputs);
        }
    }

    /** Copies {@code W} transposed into {@code columns} ({@code [input][output]}). */
    void weightColumns(final float[] params, final float[][] columns) {
        for (int o = 0; o < outputs; o++) {
            final int row = weightOffset + o * inputs;
            for (int i = 0; i < inputs; i++) {
                columns[i][o] = params[row + i];
            }
        }
    }

    /** {@code out[s] = W in[s] + b} for the first {@code block} samples: the columns of W weighted by the nonzero inputs. */
    void forward(
            final float[] params,
            final float[][] columns,
            final float[][] in,
            final float[][] out,
            final int block,
            final Gather gather) {
        for (int s = 0; s < block; s++) {
            final float[] x = in[s];
            int count = 0;
            for (int i = 0; i < inputs; i++) {
                if (x[i] != 0f) {
                    gather.coefficients[count] = x[i];
                    gather.rows[count++] = columns[i];
                }
            }
            System.arraycopy(params, biasOffset(), out[s], 0, outputs);
            RowOps.addWeighted(gather.coefficients, 0, gather.rows, 0, count, out[s], outputs);
        }
    }

    /** {@code out = W in + b} for one sample, as dot products on the parameter vector. */
    void forwardOne(final float[] params, final float[] in, final float[] out) {
        final int bias = biasOffset();
        for (int o = 0; o < outputs; o++) {
            out[o] = params[bias + o] + VectorOps.dot(params, weightOffset + o * inputs, in, 0, inputs);
        }
    }

    /**
     * Adds {@code sum_s delta[s][o] in[s]} to {@code weightGradient[o]} and {@code sum_s delta[s][o]}
     * to {@code biasGradient[o]}, over the first {@code block} samples.
     */
    void accumulateGradient(
            final float[][] in,
            final float[][] delta,
            final float[][] weightGradient,
            final float[] biasGradient,
            final int block,
            final Gather gather) {
        for (int o = 0; o < outputs; o++) {
            int count = 0;
            float biasSum = 0;
            for (int s = 0; s < block; s++) {
                final float d = delta[s][o];
                if (d != 0f) {
                    gather.coefficients[count] = d;
                    gather.rows[count++] = in[s];
                    biasSum += d;
                }
            }
            RowOps.addWeighted(gather.coefficients, 0, gather.rows, 0, count, weightGradient[o], inputs);
            biasGradient[o] += biasSum;
        }
    }

    /** {@code deltaIn[s] = W^T delta[s]}, overwriting {@code deltaIn}: the rows of W weighted by the nonzero deltas. */
    void backpropagate(
            final float[][] rows,
            final float[][] delta,
            final float[][] deltaIn,
            final int block,
            final Gather gather) {
        for (int s = 0; s < block; s++) {
            final float[] d = delta[s];
            int count = 0;
            for (int o = 0; o < outputs; o++) {
                if (d[o] != 0f) {
                    gather.coefficients[count] = d[o];
                    gather.rows[count++] = rows[o];
                }
            }
            Arrays.fill(deltaIn[s], 0, inputs, 0f);
            RowOps.addWeighted(gather.coefficients, 0, gather.rows, 0, count, deltaIn[s], inputs);
        }
    }

    /** Adds the weight and bias gradients to the double gradient sum in the parameter layout. */
    void addTo(final float[][] weightGradient, final float[] biasGradient, final double[] gradientSum) {
        for (int o = 0; o < outputs; o++) {
            VectorOps.addTo(weightGradient[o], gradientSum, weightOffset + o * inputs);
        }
        VectorOps.addTo(biasGradient, gradientSum, biasOffset());
    }
}
