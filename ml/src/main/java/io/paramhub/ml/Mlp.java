package io.paramhub.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A multi-layer perceptron for classification: dense layers with ReLU between them, softmax
 * cross-entropy on the last, He initialisation. The parameter vector holds each layer's weights
 * (row-major, one row of inputs per unit) then its biases, first layer first: as tensors
 * {@code layers.I.weight [units, inputs]} and {@code layers.I.bias [units]}, those of a
 * {@code torch.nn.ModuleList} of {@code torch.nn.Linear} named {@code layers}.
 *
 * <p>The kind is {@code mlp} for hidden layers of 256 and 128 units, or {@code mlp:H1,H2,...} for
 * others, {@code mlp:H1,H2,...,dropout=R} with dropout of rate R after every hidden layer (masks
 * drawn from the job's seed, the clock and the sample, see {@link Dropout}). Samples are processed
 * in blocks of {@value #BLOCK}, each layer as {@link RowOps} weighted sums over copies of its
 * weights taken once per call (see {@link DenseLayer}); scratch is allocated per call, so one instance is
 * safe to share between compute threads.
 */
public final class Mlp implements PipelineModel {

    /** The name {@link Models#create} knows this model by. */
    public static final String KIND = "mlp";
    /** The hidden layers of {@code mlp} without a suffix. */
    public static final List<Integer> DEFAULT_HIDDEN = List.of(256, 128);
    /** The dropout rate after each hidden layer of {@code mlp} without a suffix. */
    public static final double DEFAULT_DROPOUT = 0;

    /** Samples per block: 32 measured best of 1, 8, 32 and 64 in {@code MlpBlockBenchmark} (docs/benchmarks.md). */
    static final int BLOCK = 32;

    private final int inputs;
    private final int classes;
    private final List<Integer> hidden;
    private final DenseLayer[] layers;
    private final int block;
    private final Dropout dropout;
    /** The gradient computation's large arrays, kept from call to call. */
    private final AtomicReference<LayerBuffers> buffers = new AtomicReference<>();

    /** A perceptron of {@code inputs} features, the given hidden layer widths and {@code classes} classes. */
    public Mlp(final int inputs, final List<Integer> hidden, final int classes) {
        this(inputs, hidden, classes, 0);
    }

    /** The same with dropout of {@code dropout} after every hidden layer. */
    public Mlp(final int inputs, final List<Integer> hidden, final int classes, final double dropout) {
        this(inputs, hidden, classes, dropout, BLOCK);
    }

    /** The same with another block size, for benchmarks. */
    Mlp(final int inputs, final List<Integer> hidden, final int classes, final double dropout, final int block) {
        if (inputs < 1) {
            throw new IllegalArgumentException("mlp needs >= 1 input, got " + inputs);
        }
        if (classes < 2) {
            throw new IllegalArgumentException("mlp needs >= 2 classes, got " + classes);
        }
        if (hidden.stream().anyMatch(width -> width < 1)) {
            throw new IllegalArgumentException("mlp hidden layers need >= 1 unit each, got " + hidden);
        }
        if (block < 1) {
            throw new IllegalArgumentException("mlp block needs >= 1 sample, got " + block);
        }
        this.block = block;
        this.dropout = new Dropout(dropout);
        this.inputs = inputs;
        this.classes = classes;
        this.hidden = List.copyOf(hidden);
        final List<DenseLayer> built = new ArrayList<>();
        long offset = 0;
        int width = inputs;
        final List<Integer> widths = new ArrayList<>(hidden);
        widths.add(classes);
        for (final int next : widths) {
            final long count = ((long) width + 1) * next;
            if (offset + count > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("mlp " + inputs + "-" + hidden + "-" + classes + " is too large");
            }
            built.add(new DenseLayer(width, next, (int) offset));
            offset += count;
            width = next;
        }
        this.layers = built.toArray(new DenseLayer[0]);
    }

    @Override
    public String kind() {
        if (hidden.equals(DEFAULT_HIDDEN) && dropout.rate() == DEFAULT_DROPOUT) {
            return KIND;
        }
        final StringBuilder kind = new StringBuilder(KIND).append(':');
        for (int i = 0; i < hidden.size(); i++) {
            kind.append(i == 0 ? "" : ",").append(hidden.get(i));
        }
        return kind.append(ModelKinds.dropoutSuffix(dropout.rate())).toString();
    }

    @Override
    public int inputs() {
        return inputs;
    }

    @Override
    public int outputs() {
        return classes;
    }

    @Override
    public int parameterCount() {
        return layers[layers.length - 1].end();
    }

    @Override
    public List<NamedTensor> tensors() {
        final List<NamedTensor> tensors = new ArrayList<>();
        for (int i = 0; i < layers.length; i++) {
            tensors.addAll(layers[i].tensors("layers." + i));
        }
        return tensors;
    }

    @Override
    public float[] initialParameters(final long seed) {
        final Random random = new Random(seed);
        final float[] params = new float[parameterCount()];
        for (final DenseLayer layer : layers) {
            layer.initialize(params, random);
        }
        return params;
    }

    /** The gradient with the dropout masks of seed 0, clock 0. */
    @Override
    public double accumulateGradient(
            final float[] params, final Dataset data, final int[] samples, final double[] gradientSum) {
        return accumulateGradient(params, data, samples, gradientSum, 0, 0);
    }

    @Override
    public double accumulateGradient(
            final float[] params,
            final Dataset data,
            final int[] samples,
            final double[] gradientSum,
            final long seed,
            final long clock) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireClassification(this, data);
        ModelChecks.requireGradient(this, gradientSum);
        final LayerBuffers buffers = LayerBuffers.take(this.buffers, layers, inputs, block, dropout.active())
                .zeroGradients();
        try {
            return accumulateGradient(params, data, samples, gradientSum, seed, clock, buffers);
        } finally {
            buffers.release(this.buffers);
        }
    }

    private double accumulateGradient(
            final float[] params,
            final Dataset data,
            final int[] samples,
            final double[] gradientSum,
            final long seed,
            final long clock,
            final LayerBuffers buffers) {
        final float[][][] activations = buffers.activations;
        final float[][][] deltas = buffers.deltas;
        final float[][][] masks = buffers.masks;
        final float[][][] rows = buffers.rows;
        final float[][][] columns = buffers.columns;
        final float[][][] weightGradients = buffers.weightGradients;
        final float[][] biasGradients = buffers.biasGradients;
        int widest = Math.min(block, samples.length);
        for (int l = 0; l < layers.length; l++) {
            final DenseLayer layer = layers[l];
            layer.weightRows(params, rows[l]);
            layer.weightColumns(params, columns[l]);
            widest = Math.max(widest, Math.max(layer.inputs(), layer.outputs()));
        }
        final Gather gather = new Gather(widest);
        double loss = 0;
        for (int start = 0; start < samples.length; start += block) {
            final int count = Math.min(block, samples.length - start);
            for (int s = 0; s < count; s++) {
                data.copyRow(samples[start + s], activations[0][s], 0);
            }
            for (int l = 0; l < layers.length; l++) {
                layers[l].forward(params, columns[l], activations[l], activations[l + 1], count, gather);
                if (l < layers.length - 1) {
                    for (int s = 0; s < count; s++) {
                        Relu.apply(activations[l + 1][s], layers[l].outputs());
                    }
                    if (masks != null) {
                        dropout.apply(
                                activations[l + 1],
                                masks[l + 1],
                                layers[l].outputs(),
                                samples,
                                start,
                                count,
                                seed,
                                clock,
                                l);
                    }
                }
            }
            final float[][] output = activations[layers.length];
            for (int s = 0; s < count; s++) {
                final int label = (int) data.y()[samples[start + s]];
                loss += SoftmaxCrossEntropy.lossAndDelta(output[s], 0, classes, label);
            }
            for (int l = layers.length - 1; l >= 0; l--) {
                final float[][] delta = l == layers.length - 1 ? output : deltas[l + 1];
                layers[l].accumulateGradient(
                        activations[l], delta, weightGradients[l], biasGradients[l], count, gather);
                if (l > 0) {
                    layers[l].backpropagate(rows[l], delta, deltas[l], count, gather);
                    if (masks != null) {
                        dropout.backward(deltas[l], masks[l], layers[l].inputs(), count);
                    }
                    for (int s = 0; s < count; s++) {
                        Relu.backward(activations[l][s], deltas[l][s], layers[l].inputs());
                    }
                }
            }
        }
        for (int l = 0; l < layers.length; l++) {
            layers[l].addTo(weightGradients[l], biasGradients[l], gradientSum);
        }
        return loss;
    }

    /** As {@link #predict(float[], Dataset, int, int, float[])} predicts it. */
    @Override
    public float predict(final float[] params, final Dataset data, final int sample) {
        ModelChecks.requireData(this, data);
        Objects.checkIndex(sample, data.size());
        return new Forward(params).predict(data, sample);
    }

    /**
     * The class of each sample by the training's forward pass (no dropout): each layer's weights are transposed
     * once for the range, and a sample's outputs are the columns weighted by its nonzero inputs, so an
     * evaluation of thousands of samples costs little more than their forward passes.
     */
    @Override
    public void predict(
            final float[] params, final Dataset data, final int from, final int to, final float[] predictions) {
        ModelChecks.requireData(this, data);
        Objects.checkFromToIndex(from, to, data.size());
        final Forward forward = new Forward(params);
        for (int sample = from; sample < to; sample++) {
            predictions[sample] = forward.predict(data, sample);
        }
    }

    /** One set of parameters' weights transposed, and the arrays to push one sample at a time through them. */
    private final class Forward {
        private final float[] params;
        private final float[][][] columns = new float[layers.length][][];
        private final float[][][] activations = new float[layers.length + 1][1][];
        private final Gather gather;

        Forward(final float[] params) {
            ModelChecks.requireParams(Mlp.this, params);
            this.params = params;
            activations[0][0] = new float[inputs];
            int widest = inputs;
            for (int l = 0; l < layers.length; l++) {
                columns[l] = new float[layers[l].inputs()][layers[l].outputs()];
                layers[l].weightColumns(params, columns[l]);
                activations[l + 1][0] = new float[layers[l].outputs()];
                widest = Math.max(widest, layers[l].inputs());
            }
            gather = new Gather(widest);
        }

        float predict(final Dataset data, final int sample) {
            data.copyRow(sample, activations[0][0], 0);
            for (int l = 0; l < layers.length; l++) {
                layers[l].forward(params, columns[l], activations[l], activations[l + 1], 1, gather);
                if (l < layers.length - 1) {
                    Relu.apply(activations[l + 1][0], layers[l].outputs());
                }
            }
            return SoftmaxCrossEntropy.argmax(activations[layers.length][0], 0, classes);
        }
    }

    /** One stage per dense layer at most: the network is cut between layers. */
    @Override
    public int maxStages() {
        return layers.length;
    }

    @Override
    public int block() {
        return block;
    }

    /** The layers cut into contiguous groups whose largest parameter count is as small as it can be ({@link StageCuts}). */
    @Override
    public PipelineStage stage(final int stage, final int stages) {
        if (stage < 0 || stage >= stages) {
            throw new IllegalArgumentException("stage " + stage + " out of range [0, " + stages + ")");
        }
        final long[] sizes = new long[layers.length];
        for (int l = 0; l < layers.length; l++) {
            sizes[l] = layers[l].parameterCount();
        }
        final int[] bounds = StageCuts.balanced(sizes, stages);
        return new MlpStage(
                this, layers, bounds[stage], bounds[stage + 1], dropout, inputs, classes, block, stage, stages);
    }

    @Override
    public String toString() {
        return "Mlp[inputs=" + inputs + ", hidden=" + hidden + ", classes=" + classes + ", dropout=" + dropout.rate()
                + "]";
    }
}
