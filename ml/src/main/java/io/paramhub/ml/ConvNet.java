package io.paramhub.ml;

import java.util.List;
import java.util.Random;

/**
 * A small convolutional classifier for square one-channel images: two blocks of convolution
 * (K x K, stride 1, no padding), ReLU and 2 x 2 max pooling, then a dense ReLU layer and a dense
 * softmax cross-entropy layer; He initialisation. The parameter vector holds the layers in that
 * order, each as weights then biases.
 *
 * <p>The kind is {@code cnn} for K = 5 with 16 and 32 channels and 128 hidden units (28 x 28 -> 16
 * x 24 x 24 -> 16 x 12 x 12 -> 32 x 8 x 8 -> 32 x 4 x 4 -> 128 -> classes), or
 * {@code cnn:K,C1,C2,H} for others. Scratch is allocated per call, so one instance is safe to
 * share between compute threads.
 */
public final class ConvNet implements Model {

    /** The name {@link Models#create} knows this model by. */
    public static final String KIND = "cnn";
    /** Kernel, first and second convolution's channels and hidden units of {@code cnn} without a suffix. */
    public static final List<Integer> DEFAULT_SHAPE = List.of(5, 16, 32, 128);

    private final int inputs;
    private final int classes;
    private final List<Integer> shape;
    private final ConvLayer conv1;
    private final MaxPool pool1;
    private final ConvLayer conv2;
    private final MaxPool pool2;
    private final DenseLayer dense1;
    private final DenseLayer dense2;

    /**
     * A network for images of {@code inputs} pixels (a square number) and {@code classes} classes.
     *
     * @param shape kernel side, channels of the first and second convolution, hidden units
     */
    public ConvNet(final int inputs, final List<Integer> shape, final int classes) {
        final int side = (int) Math.round(Math.sqrt(inputs));
        if (inputs < 1 || side * side != inputs) {
            throw new IllegalArgumentException("cnn needs square images, got " + inputs + " inputs");
        }
        if (classes < 2) {
            throw new IllegalArgumentException("cnn needs >= 2 classes, got " + classes);
        }
        if (shape.size() != 4 || shape.stream().anyMatch(value -> value < 1)) {
            throw new IllegalArgumentException("cnn shape is kernel,channels1,channels2,hidden (all >= 1), got "
                    + shape);
        }
        this.inputs = inputs;
        this.classes = classes;
        this.shape = List.copyOf(shape);
        final int kernel = shape.get(0);
        conv1 = new ConvLayer(1, side, kernel, shape.get(1), 0);
        pool1 = new MaxPool(shape.get(1), requireEven(conv1.outSide(), side));
        conv2 = new ConvLayer(shape.get(1), pool1.outSide(), kernel, shape.get(2), conv1.end());
        pool2 = new MaxPool(shape.get(2), requireEven(conv2.outSide(), side));
        dense1 = new DenseLayer(pool2.outputSize(), shape.get(3), conv2.end());
        dense2 = new DenseLayer(shape.get(3), classes, dense1.end());
    }

    private int requireEven(final int convolvedSide, final int side) {
        if (convolvedSide < 2 || convolvedSide % 2 != 0) {
            throw new IllegalArgumentException("cnn " + shape + " on " + side + " x " + side
                    + " images gives a convolution output of side " + convolvedSide + ", which 2 x 2 pooling needs even");
        }
        return convolvedSide;
    }

    @Override
    public String kind() {
        if (shape.equals(DEFAULT_SHAPE)) {
            return KIND;
        }
        return KIND + ":" + shape.get(0) + "," + shape.get(1) + "," + shape.get(2) + "," + shape.get(3);
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
    public float[] initialParameters(final long seed) {
        final Random random = new Random(seed);
        final float[] params = new float[parameterCount()];
        conv1.initialize(params, random);
        conv2.initialize(params, random);
        dense1.initialize(params, random);
        dense2.initialize(params, random);
        return params;
    }

    @Override
    public double accumulateGradient(final float[] params, final Dataset data, final int[] samples,
                                     final double[] gradientSum) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireClassification(this, data);
        ModelChecks.requireGradient(this, gradientSum);
        final Scratch s = new Scratch();
        final float[] gradient = new float[parameterCount()];
        double loss = 0;
        for (final int sample : samples) {
            forward(params, data, sample, s);
            loss += SoftmaxCrossEntropy.lossAndDelta(s.logits, 0, classes, (int) data.y()[sample]);
            dense2.accumulateGradient(s.hidden, s.logits, gradient, 1);
            dense2.backpropagate(params, s.logits, s.hiddenDelta, 1);
            Relu.backward(s.hidden, s.hiddenDelta, s.hidden.length);
            dense1.accumulateGradient(s.pooled2, s.hiddenDelta, gradient, 1);
            dense1.backpropagate(params, s.hiddenDelta, s.pooled2Delta, 1);
            pool2.backward(s.pooled2Delta, s.from2, s.conv2Delta);
            Relu.backward(s.conv2Out, s.conv2Delta, s.conv2Out.length);
            conv2.accumulateGradient(s.cols2, s.conv2Delta, gradient);
            conv2.backpropagate(params, s.conv2Delta, s.cols2Delta);
            conv2.roll(s.cols2Delta, s.pooled1Delta);
            pool1.backward(s.pooled1Delta, s.from1, s.conv1Delta);
            Relu.backward(s.conv1Out, s.conv1Delta, s.conv1Out.length);
            conv1.accumulateGradient(s.cols1, s.conv1Delta, gradient);
        }
        VectorOps.addTo(gradient, gradientSum, 0);
        return loss;
    }

    @Override
    public float predict(final float[] params, final Dataset data, final int sample) {
        ModelChecks.requireParams(this, params);
        ModelChecks.requireData(this, data);
        final Scratch s = new Scratch();
        forward(params, data, sample, s);
        return SoftmaxCrossEntropy.argmax(s.logits, 0, classes);
    }

    private void forward(final float[] params, final Dataset data, final int sample, final Scratch s) {
        conv1.unroll(data.x(), sample * inputs, s.cols1, s.cols1T);
        conv1.forward(params, s.cols1T, s.conv1Out);
        Relu.apply(s.conv1Out, s.conv1Out.length);
        pool1.forward(s.conv1Out, s.pooled1, s.from1);
        conv2.unroll(s.pooled1, 0, s.cols2, s.cols2T);
        conv2.forward(params, s.cols2T, s.conv2Out);
        Relu.apply(s.conv2Out, s.conv2Out.length);
        pool2.forward(s.conv2Out, s.pooled2, s.from2);
        dense1.forward(params, s.pooled2, s.hidden, 1);
        Relu.apply(s.hidden, s.hidden.length);
        dense2.forward(params, s.hidden, s.logits, 1);
    }

    /** One sample's activations and their gradients, owned by one call. */
    private final class Scratch {
        final float[] cols1 = new float[conv1.patch() * conv1.positions()];
        final float[] cols1T = new float[conv1.patch() * conv1.positions()];
        final float[] conv1Out = new float[conv1.outputSize()];
        final float[] conv1Delta = new float[conv1.outputSize()];
        final float[] pooled1 = new float[pool1.outputSize()];
        final float[] pooled1Delta = new float[pool1.outputSize()];
        final int[] from1 = new int[pool1.outputSize()];
        final float[] cols2 = new float[conv2.patch() * conv2.positions()];
        final float[] cols2T = new float[conv2.patch() * conv2.positions()];
        final float[] cols2Delta = new float[conv2.patch() * conv2.positions()];
        final float[] conv2Out = new float[conv2.outputSize()];
        final float[] conv2Delta = new float[conv2.outputSize()];
        final float[] pooled2 = new float[pool2.outputSize()];
        final float[] pooled2Delta = new float[pool2.outputSize()];
        final int[] from2 = new int[pool2.outputSize()];
        final float[] hidden = new float[dense1.outputs()];
        final float[] hiddenDelta = new float[dense1.outputs()];
        final float[] logits = new float[classes];
    }

    @Override
    public String toString() {
        return "ConvNet[inputs=" + inputs + ", shape=" + shape + ", classes=" + classes + "]";
    }
}
