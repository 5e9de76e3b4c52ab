package io.paramhub.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * A small convolutional classifier for square one-channel images: two blocks of convolution
 * (K x K, stride 1, zero padding PAD), ReLU and 2 x 2 max pooling, then a dense ReLU layer with
 * dropout and a dense softmax cross-entropy layer; He initialisation. The parameter vector holds the
 * layers in that order, each as weights then biases: as tensors {@code conv1.weight [C1, 1, K, K]},
 * {@code conv1.bias}, {@code conv2.weight [C2, C1, K, K]}, {@code conv2.bias}, {@code fc1.weight [H, C2 x S x S]}
 * (the pooled images flattened channel-major, as {@code torch.flatten} does), {@code fc1.bias},
 * {@code fc2.weight [classes, H]}, {@code fc2.bias}.
 *
 * <p>The kind is {@code cnn} for {@link ConvShape#DEFAULT}, or {@code cnn:K,C1,C2,H[,PAD][,dropout=R][,flip]}
 * (kernel, channels of the two convolutions, hidden units, padding, dropout rate of the hidden layer;
 * PAD and R default to 0, so {@code cnn:5,16,32,128} is the valid-convolution network without
 * dropout). Training runs the convolutions sample by sample and the dense layers on blocks of
 * {@value #BLOCK} samples (see {@link ConvLayer}, {@link DenseLayer}); scratch lives in a
 * {@link ThreadLocal}, so one instance is safe to share between compute threads.
 */
public final class ConvNet implements PipelineModel {

    /** The name {@link Models#create} knows this model by. */
    public static final String KIND = "cnn";

    /** Samples per block of the dense layers. */
    static final int BLOCK = 32;
    /** The {@link Dropout#key} layer number of the flip draws, apart from every dropout layer's. */
    private static final int FLIP_STREAM = -1;

    private final int inputs;
    private final int classes;
    private final ConvShape shape;
    private final ConvLayer conv1;
    private final MaxPool pool1;
    private final ConvLayer conv2;
    private final MaxPool pool2;
    private final DenseLayer dense1;
    private final DenseLayer dense2;
    private final Dropout dropout;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    /** A network of the given shape ({@code kernel, channels1, channels2, hidden[, pad]}), without dropout. */
    public ConvNet(final int inputs, final List<Integer> shape, final int classes) {
        this(inputs, ConvShape.of(shape), classes);
    }

    /**
     * A network for images of {@code inputs} pixels (a square number) and {@code classes} classes.
     *
     * @throws IllegalArgumentException for a shape that does not fit the images
     */
    public ConvNet(final int inputs, final ConvShape shape, final int classes) {
        final int side = (int) Math.round(Math.sqrt(inputs));
        if (inputs < 1 || side * side != inputs) {
            throw new IllegalArgumentException("cnn needs square images, got " + inputs + " inputs");
        }
        if (classes < 2) {
            throw new IllegalArgumentException("cnn needs >= 2 classes, got " + classes);
        }
        if (shape.kernel() < 1
                || shape.channels1() < 1
                || shape.channels2() < 1
                || shape.hidden() < 1
                || shape.pad() < 0) {
            throw new IllegalArgumentException(
                    "cnn shape needs kernel, channels and hidden units >= 1 and padding " + ">= 0, got " + shape);
        }
        this.inputs = inputs;
        this.classes = classes;
        this.shape = shape;
        this.dropout = new Dropout(shape.dropout());
        conv1 = new ConvLayer(1, side, shape.kernel(), shape.pad(), shape.channels1(), 0);
        pool1 = new MaxPool(shape.channels1(), requireEven(conv1.outSide(), side));
        conv2 = new ConvLayer(
                shape.channels1(), pool1.outSide(), shape.kernel(), shape.pad(), shape.channels2(), conv1.end());
        pool2 = new MaxPool(shape.channels2(), requireEven(conv2.outSide(), side));
        final long parameters = (long) conv2.end()
                + ((long) pool2.outputSize() + 1) * shape.hidden()
                + ((long) shape.hidden() + 1) * classes;
        if (parameters > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cnn " + shape + " is too large");
        }
        dense1 = new DenseLayer(pool2.outputSize(), shape.hidden(), conv2.end());
        dense2 = new DenseLayer(shape.hidden(), classes, dense1.end());
    }

    private int requireEven(final int convolvedSide, final int side) {
        if (convolvedSide < 2 || convolvedSide % 2 != 0) {
            throw new IllegalArgumentException("cnn " + shape.suffix() + " on " + side + " x " + side
                    + " images gives a convolution output of side " + convolvedSide
                    + ", which 2 x 2 pooling needs even");
        }
        return convolvedSide;
    }

    /** The architecture. */
    public ConvShape shape() {
        return shape;
    }

    @Override
    public String kind() {
        return shape.equals(ConvShape.DEFAULT) ? KIND : KIND + ":" + shape.suffix();
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
        return dense2.end();
    }

    @Override
    public List<NamedTensor> tensors() {
        final List<NamedTensor> tensors = new ArrayList<>(conv1.tensors("conv1"));
        tensors.addAll(conv2.tensors("conv2"));
        tensors.addAll(dense1.tensors("fc1"));
        tensors.addAll(dense2.tensors("fc2"));
        return tensors;
    }

    @Override
    public float[] initialParameters(final long seed) {
        final Random random = new Random(seed);
        final float[] params = new float[parameterCount()];
        conv1.initialize(params, random);
        conv2.initialize(params, random);
        dense1.initialize(params, random);
        dense2.initialize(params, random);
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
        final Scratch s = scratch.get();
        s.startCall(params);
        double loss = 0;
        for (int start = 0; start < samples.length; start += BLOCK) {
            final int block = Math.min(BLOCK, samples.length - start);
            for (int j = 0; j < block; j++) {
                s.flipped[j] = shape.flip() && flipped(seed, clock, samples[start + j]);
                data.copyRow(samples[start + j], s.image, 0);
                forwardConvolutions(params, s.image, 0, s, j, s.flipped[j]);
            }
            dense1.forward(params, s.dense1Columns, s.flat, s.hidden, block, s.gather);
            for (int j = 0; j < block; j++) {
                Relu.apply(s.hidden[j], shape.hidden());
            }
            if (dropout.active()) {
                dropout.apply(s.hidden, s.mask, shape.hidden(), samples, start, block, seed, clock, 0);
            }
            dense2.forward(params, s.dense2Columns, s.hidden, s.logits, block, s.gather);
            for (int j = 0; j < block; j++) {
                loss += SoftmaxCrossEntropy.lossAndDelta(s.logits[j], 0, classes, (int) data.y()[samples[start + j]]);
            }
            dense2.accumulateGradient(s.hidden, s.logits, s.dense2Gradient, s.dense2BiasGradient, block, s.gather);
            dense2.backpropagate(s.dense2Rows, s.logits, s.hiddenDelta, block, s.gather);
            if (dropout.active()) {
                dropout.backward(s.hiddenDelta, s.mask, shape.hidden(), block);
            }
            for (int j = 0; j < block; j++) {
                Relu.backward(s.hidden[j], s.hiddenDelta[j], shape.hidden());
            }
            dense1.accumulateGradient(s.flat, s.hiddenDelta, s.dense1Gradient, s.dense1BiasGradient, block, s.gather);
            dense1.backpropagate(s.dense1Rows, s.hiddenDelta, s.flatDelta, block, s.gather);
            for (int j = 0; j < block; j++) {
                data.copyRow(samples[start + j], s.image, 0);
                backwardConvolutions(s.image, 0, s, j);
            }
        }
        conv1.addTo(s.conv1Gradient, s.conv1BiasGradient, gradientSum);
        conv2.addTo(s.conv2Gradient, s.conv2BiasGradient, gradientSum);
        dense1.addTo(s.dense1Gradient, s.dense1BiasGradient, gradientSum);
        dense2.addTo(s.dense2Gradient, s.dense2BiasGradient, gradientSum);
        return loss;
    }

    @Override
    public float predict(final float[] params, final Dataset data, final int sample) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireData(this, data);
        final Scratch s = scratch.get();
        data.copyRow(sample, s.image, 0);
        forwardConvolutions(params, s.image, 0, s, 0, false);
        final float[] hidden = new float[shape.hidden()];
        dense1.forwardOne(params, s.flat[0], hidden);
        Relu.apply(hidden, hidden.length);
        final float[] logits = new float[classes];
        dense2.forwardOne(params, hidden, logits);
        return SoftmaxCrossEntropy.argmax(logits, 0, classes);
    }

    /** Whether training sees {@code sample} mirrored at {@code clock}: a fair coin drawn from (seed, clock, sample). */
    static boolean flipped(final long seed, final long clock, final int sample) {
        return new SplittableRandom(Dropout.key(seed, clock, sample, FLIP_STREAM)).nextBoolean();
    }

    /** Both convolution blocks of one image (mirrored or not), into row {@code j} of the block's flattened features. */
    private void forwardConvolutions(
            final float[] params,
            final float[] x,
            final int offset,
            final Scratch s,
            final int j,
            final boolean mirrored) {
        forwardConvolutions(
                params, x, offset, s, new ConvRows(s.pooled1[j], s.from1[j], s.flat[j], s.from2[j]), mirrored);
    }

    /** Both convolution blocks of one image (mirrored or not), into {@code rows}. */
    void forwardConvolutions(
            final float[] params,
            final float[] x,
            final int offset,
            final Scratch s,
            final ConvRows rows,
            final boolean mirrored) {
        conv1.pad(x, offset, s.padded1, mirrored);
        conv1.unroll(s.padded1, s.cols1T);
        conv1.forward(params, s.cols1T, s.conv1Out);
        pool1.forward(s.conv1Out, rows.pooled1(), rows.from1());
        conv2.pad(rows.pooled1(), 0, s.padded2, false);
        conv2.unroll(s.padded2, s.cols2T);
        conv2.forward(params, s.cols2T, s.conv2Out);
        pool2.forward(s.conv2Out, rows.flat(), rows.from2());
    }

    /** The convolutions' gradients of sample {@code j} of the block, from its flattened features' deltas. */
    private void backwardConvolutions(final float[] x, final int offset, final Scratch s, final int j) {
        backwardConvolutions(
                x,
                offset,
                s,
                new ConvRows(s.pooled1[j], s.from1[j], s.flat[j], s.from2[j]),
                s.flatDelta[j],
                s.flipped[j]);
    }

    /** The convolutions' gradients of one image, added to {@code s}'s, from its flattened features' deltas. */
    void backwardConvolutions(
            final float[] x,
            final int offset,
            final Scratch s,
            final ConvRows rows,
            final float[] flatDelta,
            final boolean mirrored) {
        pool2.backward(rows.flat(), flatDelta, rows.from2(), s.deltas2);
        conv2.pad(rows.pooled1(), 0, s.padded2, false);
        conv2.unrollPositions(s.padded2, s.deltas2, s.cols2);
        conv2.accumulateGradient(s.deltas2, s.cols2, s.conv2Gradient, s.conv2BiasGradient, s.gather);
        conv2.backpropagate(s.conv2Rows, s.deltas2, s.cols2Delta, s.padded2Delta, s.pooled1Delta, s.gather);
        pool1.backward(rows.pooled1(), s.pooled1Delta, rows.from1(), s.deltas1);
        conv1.pad(x, offset, s.padded1, mirrored);
        conv1.unrollPositions(s.padded1, s.deltas1, s.cols1);
        conv1.accumulateGradient(s.deltas1, s.cols1, s.conv1Gradient, s.conv1BiasGradient, s.gather);
    }

    /** What the convolutions of one image keep for its backward: the pooled maps, where each maximum came from. */
    record ConvRows(float[] pooled1, int[] from1, float[] flat, int[] from2) {}

    /** Fresh rows for one image's convolutions. */
    ConvRows convRows() {
        return new ConvRows(
                new float[pool1.outputSize()],
                new int[pool1.outputSize()],
                new float[pool2.outputSize()],
                new int[pool2.outputSize()]);
    }

    /** A fresh scratch of its own, for a pipeline stage's pass. */
    Scratch newScratch() {
        return new Scratch();
    }

    /** The flattened features the convolutions produce per image: the dense layers' input. */
    int features() {
        return pool2.outputSize();
    }

    /** Adds the convolutions' gradients summed in {@code s} to the gradient sum. */
    void addConvolutionGradients(final Scratch s, final double[] gradientSum) {
        conv1.addTo(s.conv1Gradient, s.conv1BiasGradient, gradientSum);
        conv2.addTo(s.conv2Gradient, s.conv2BiasGradient, gradientSum);
    }

    DenseLayer dense1() {
        return dense1;
    }

    DenseLayer dense2() {
        return dense2;
    }

    /** Both convolutions' forward multiply-adds per image ({@link ConvLayer#multiplyAdds()}). */
    long convolutionMultiplyAdds() {
        return conv1.multiplyAdds() + conv2.multiplyAdds();
    }

    Dropout dropout() {
        return dropout;
    }

    /** One stage per hidden unit at most: the cut splits the hidden layer's units (docs/models.md). */
    @Override
    public int maxStages() {
        return shape.hidden();
    }

    @Override
    public int block() {
        return BLOCK;
    }

    /**
     * Stage {@code stage} of {@code stages}: stage 0 holds the convolutions, the last the output layer, and the
     * hidden layer's units are shared out so that the stages' parameter counts are as even as they can be
     * ({@link ConvNetStage}).
     */
    @Override
    public PipelineStage stage(final int stage, final int stages) {
        if (stages < 1 || stages > maxStages()) {
            throw new IllegalArgumentException(kind() + " can be cut into 1 to " + maxStages()
                    + " stages (one hidden unit each at least), not " + stages);
        }
        if (stage < 0 || stage >= stages) {
            throw new IllegalArgumentException("stage " + stage + " out of range [0, " + stages + ")");
        }
        final int[] units =
                ConvNetStage.unitBounds(parameterCount(), conv2.end(), pool2.outputSize() + 1, shape.hidden(), stages);
        return new ConvNetStage(this, stage, stages, units[stage], units[stage + 1]);
    }

    /** One thread's activations, gradients and weight copies; refilled by every call. */
    final class Scratch {
        /** One sample's features ({@link Dataset#copyRow}), the input of the convolutions. */
        final float[] image = new float[inputs];

        final float[] padded1 = new float[conv1.paddedSize()];
        final float[][] cols1T = RowOps.matrix(conv1.patch(), conv1.positions());
        final float[][] conv1Out = RowOps.matrix(shape.channels1(), conv1.positions());
        final float[][] pooled1 = RowOps.matrix(BLOCK, pool1.outputSize());
        final int[][] from1 = new int[BLOCK][pool1.outputSize()];
        final float[] padded2 = new float[conv2.paddedSize()];
        final float[] padded2Delta = new float[conv2.paddedSize()];
        final float[][] cols2T = RowOps.matrix(conv2.patch(), conv2.positions());
        final float[][] conv2Out = RowOps.matrix(shape.channels2(), conv2.positions());
        final float[][] flat = RowOps.matrix(BLOCK, pool2.outputSize());
        final int[][] from2 = new int[BLOCK][pool2.outputSize()];
        final float[][] hidden = RowOps.matrix(BLOCK, shape.hidden());
        final float[][] mask = RowOps.matrix(BLOCK, shape.hidden());
        final float[][] logits = RowOps.matrix(BLOCK, classes);
        final boolean[] flipped = new boolean[BLOCK];
        final float[][] hiddenDelta = RowOps.matrix(BLOCK, shape.hidden());
        final float[][] flatDelta = RowOps.matrix(BLOCK, pool2.outputSize());
        final SparseDeltas deltas2 = new SparseDeltas(shape.channels2(), conv2.positions(), conv2.positions() / 4);
        final float[][] cols2 = RowOps.matrix(conv2.positions(), conv2.patch());
        final float[][] cols2Delta = RowOps.matrix(conv2.positions(), conv2.patch());
        final float[] pooled1Delta = new float[pool1.outputSize()];
        final SparseDeltas deltas1 = new SparseDeltas(shape.channels1(), conv1.positions(), conv1.positions() / 4);
        final float[][] cols1 = RowOps.matrix(conv1.positions(), conv1.patch());
        final float[][] conv2Rows = RowOps.matrix(shape.channels2(), conv2.patch());
        final float[][] dense1Rows = RowOps.matrix(shape.hidden(), pool2.outputSize());
        final float[][] dense1Columns = RowOps.matrix(pool2.outputSize(), shape.hidden());
        final float[][] dense2Rows = RowOps.matrix(classes, shape.hidden());
        final float[][] dense2Columns = RowOps.matrix(shape.hidden(), classes);
        final float[][] conv1Gradient = RowOps.matrix(shape.channels1(), conv1.patch());
        final float[] conv1BiasGradient = new float[shape.channels1()];
        final float[][] conv2Gradient = RowOps.matrix(shape.channels2(), conv2.patch());
        final float[] conv2BiasGradient = new float[shape.channels2()];
        final float[][] dense1Gradient = RowOps.matrix(shape.hidden(), pool2.outputSize());
        final float[] dense1BiasGradient = new float[shape.hidden()];
        final float[][] dense2Gradient = RowOps.matrix(classes, shape.hidden());
        final float[] dense2BiasGradient = new float[classes];
        final Gather gather = new Gather(Math.max(
                Math.max(pool2.outputSize(), BLOCK),
                Math.max(Math.max(shape.hidden(), classes), Math.max(conv1.positions(), shape.channels2()))));

        /** Takes this call's weight copies and zeroes the gradients. */
        void startCall(final float[] params) {
            conv2.weightRows(params, conv2Rows);
            dense1.weightRows(params, dense1Rows);
            dense1.weightColumns(params, dense1Columns);
            dense2.weightRows(params, dense2Rows);
            dense2.weightColumns(params, dense2Columns);
            RowOps.clear(conv1Gradient, conv1Gradient.length);
            Arrays.fill(conv1BiasGradient, 0f);
            RowOps.clear(conv2Gradient, conv2Gradient.length);
            Arrays.fill(conv2BiasGradient, 0f);
            RowOps.clear(dense1Gradient, dense1Gradient.length);
            Arrays.fill(dense1BiasGradient, 0f);
            RowOps.clear(dense2Gradient, dense2Gradient.length);
            Arrays.fill(dense2BiasGradient, 0f);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "ConvNet[inputs=%d, shape=%s, classes=%d]", inputs, shape, classes);
    }
}
