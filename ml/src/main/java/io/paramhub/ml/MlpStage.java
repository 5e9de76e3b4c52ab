package io.paramhub.ml;

import java.util.List;

/**
 * Stage {@code index} of an {@link Mlp} cut between layers: the dense layers {@code [first, end)}, each
 * hidden one followed by ReLU and dropout as in the whole network. It receives the output of layer
 * {@code first - 1} after ReLU and dropout, sends that of layer {@code end - 1}, and on the way back
 * receives the gradient by its output before the next stage's ReLU and dropout are undone (it applies its
 * own mask and rectifier) and sends the gradient by its input the same way. Every step is the whole
 * network's, per sample or per block of {@link Mlp#block} samples, so the gradients have the same bits.
 */
final class MlpStage implements PipelineStage {

    private final Mlp model;
    private final DenseLayer[] layers;
    private final int first;
    private final int end;
    private final Dropout dropout;
    private final int inputs;
    private final int classes;
    private final int block;
    private final int index;
    private final int stages;

    MlpStage(
            final Mlp model,
            final DenseLayer[] layers,
            final int first,
            final int end,
            final Dropout dropout,
            final int inputs,
            final int classes,
            final int block,
            final int index,
            final int stages) {
        this.model = model;
        this.layers = layers;
        this.first = first;
        this.end = end;
        this.dropout = dropout;
        this.inputs = inputs;
        this.classes = classes;
        this.block = block;
        this.index = index;
        this.stages = stages;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public int stages() {
        return stages;
    }

    @Override
    public List<ParameterRange> parameters() {
        return List.of(new ParameterRange(layers[first].end() - layers[first].parameterCount(), layers[end - 1].end()));
    }

    @Override
    public int inputWidth() {
        return first == 0 ? 0 : layers[first].inputs();
    }

    @Override
    public int outputWidth() {
        return end == layers.length ? 0 : layers[end - 1].outputs();
    }

    /** Inputs x outputs of each of the stage's dense layers. */
    @Override
    public long multiplyAdds() {
        long sum = 0;
        for (int layer = first; layer < end; layer++) {
            sum += (long) layers[layer].inputs() * layers[layer].outputs();
        }
        return sum;
    }

    /** The first layer of the stage (inclusive) and the last (exclusive). */
    int first() {
        return first;
    }

    int end() {
        return end;
    }

    @Override
    public StagePass start(final float[] params, final long seed, final long clock) {
        return new Pass(params, seed, clock);
    }

    @Override
    public String toString() {
        return "MlpStage[" + index + " of " + stages + ": layers " + first + ".." + (end - 1) + "]";
    }

    /** One micro-batch's activations at each layer boundary of the stage, and the dropout masks. */
    private record Micro(int[] samples, Dataset data, float[][][] activations, float[][][] masks, double loss) {}

    private final class Pass implements StagePass {

        private final float[] params;
        private final long seed;
        private final long clock;
        private final float[][][] rows = new float[end - first][][];
        private final float[][][] columns = new float[end - first][][];
        private final float[][][] weightGradients = new float[end - first][][];
        private final float[][] biasGradients = new float[end - first][];
        private final Gather gather;
        private final MicroBatchStates<Micro> micros = new MicroBatchStates<>();

        Pass(final float[] params, final long seed, final long clock) {
            ModelChecks.requireParams(model, params);
            this.params = params;
            this.seed = seed;
            this.clock = clock;
            int widest = block;
            for (int l = first; l < end; l++) {
                final DenseLayer layer = layers[l];
                rows[l - first] = new float[layer.outputs()][layer.inputs()];
                columns[l - first] = new float[layer.inputs()][layer.outputs()];
                layer.weightRows(params, rows[l - first]);
                layer.weightColumns(params, columns[l - first]);
                weightGradients[l - first] = new float[layer.outputs()][layer.inputs()];
                biasGradients[l - first] = new float[layer.outputs()];
                widest = Math.max(widest, Math.max(layer.inputs(), layer.outputs()));
            }
            gather = new Gather(widest);
        }

        @Override
        public float[][] forward(final int micro, final Dataset data, final int[] samples, final float[][] in) {
            final int n = samples.length;
            final float[][][] activations = new float[end - first + 1][][];
            final float[][][] masks = new float[end - first + 1][][];
            if (end == layers.length) {
                ModelChecks.requireClassification(model, data);
            }
            if (first == 0) {
                ModelChecks.requireData(model, data);
                MicroBatchStates.requireNoInput(in);
                activations[0] = new float[n][inputs];
                for (int s = 0; s < n; s++) {
                    data.copyRow(samples[s], activations[0][s], 0);
                }
            } else {
                MicroBatchStates.requireRows(in, n, inputWidth(), "input activations");
                activations[0] = in;
            }
            for (int l = first; l < end; l++) {
                final int out = l - first + 1;
                activations[out] = new float[n][layers[l].outputs()];
                layers[l].forward(params, columns[l - first], activations[out - 1], activations[out], n, gather);
                if (l < layers.length - 1) {
                    for (int s = 0; s < n; s++) {
                        Relu.apply(activations[out][s], layers[l].outputs());
                    }
                    if (dropout.active()) {
                        masks[out] = new float[n][layers[l].outputs()];
                        dropout.apply(activations[out], masks[out], layers[l].outputs(), samples, 0, n, seed, clock, l);
                    }
                }
            }
            double loss = 0;
            if (end == layers.length) {
                final float[][] output = activations[end - first];
                for (int s = 0; s < n; s++) {
                    loss += SoftmaxCrossEntropy.lossAndDelta(output[s], 0, classes, (int) data.y()[samples[s]]);
                }
            }
            micros.put(micro, new Micro(samples.clone(), data, activations, masks, loss));
            return end == layers.length ? null : activations[end - first];
        }

        @Override
        public double loss(final int micro) {
            return micros.get(micro).loss();
        }

        @Override
        public float[][] backward(final int micro, final float[][] outGradient) {
            final Micro state = micros.takeForBackward(micro);
            final int n = state.samples().length;
            final float[][][] activations = state.activations();
            final float[][] top;
            if (end == layers.length) {
                top = activations[end - first];
            } else {
                MicroBatchStates.requireRows(outGradient, n, outputWidth(), "output gradient");
                top = new float[n][];
                for (int s = 0; s < n; s++) {
                    top[s] = outGradient[s].clone();
                }
                undoActivation(top, activations[end - first], state.masks()[end - first], layers[end - 1].outputs(), n);
            }
            final float[][] inGradient = first == 0 ? null : new float[n][layers[first].inputs()];
            final float[][][] deltas = new float[end - first][][];
            for (int l = first + 1; l < end; l++) {
                deltas[l - first] = new float[block][layers[l].inputs()];
            }
            for (int start = 0; start < n; start += block) {
                final int count = Math.min(block, n - start);
                for (int l = end - 1; l >= first; l--) {
                    final float[][] delta =
                            l == end - 1 ? MicroBatchStates.rows(top, start, count) : deltas[l + 1 - first];
                    final float[][] in = MicroBatchStates.rows(activations[l - first], start, count);
                    layers[l].accumulateGradient(
                            in, delta, weightGradients[l - first], biasGradients[l - first], count, gather);
                    if (l > first) {
                        layers[l].backpropagate(rows[l - first], delta, deltas[l - first], count, gather);
                        final float[][] mask = state.masks()[l - first] == null
                                ? null
                                : MicroBatchStates.rows(state.masks()[l - first], start, count);
                        undoActivation(deltas[l - first], in, mask, layers[l].inputs(), count);
                    } else if (inGradient != null) {
                        layers[l].backpropagate(
                                rows[0], delta, MicroBatchStates.rows(inGradient, start, count), count, gather);
                    }
                }
            }
            return inGradient;
        }

        /** Multiplies deltas by the dropout mask (if any), then zeroes those of units the rectifier turned off. */
        private void undoActivation(
                final float[][] delta, final float[][] output, final float[][] mask, final int units, final int n) {
            if (mask != null) {
                dropout.backward(delta, mask, units, n);
            }
            for (int s = 0; s < n; s++) {
                Relu.backward(output[s], delta[s], units);
            }
        }

        @Override
        public void addTo(final double[] gradientSum) {
            ModelChecks.requireGradient(model, gradientSum);
            for (int l = first; l < end; l++) {
                layers[l].addTo(weightGradients[l - first], biasGradients[l - first], gradientSum);
            }
        }
    }
}
