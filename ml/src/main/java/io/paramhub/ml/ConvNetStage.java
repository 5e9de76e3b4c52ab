package io.paramhub.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Stage {@code index} of a {@link ConvNet} cut into pipeline stages by splitting its hidden layer: stage 0
 * holds both convolution blocks, the last stage the output layer, and stage {@code k} the hidden units
 * {@code [u0, u1)} (their rows of the hidden layer's weights and their biases). A cut between layers
 * could not share the default network fairly: its hidden layer holds 95% of the parameters.
 *
 * <p>Forward, a stage receives each image's flattened features (F values) and the hidden units before
 * {@code u0} (after ReLU and dropout), computes its own units and sends features and units up to
 * {@code u1}; the last stage computes the output layer and the loss. Backward, a stage receives the
 * gradient by the flattened features summed over the later stages' units and the gradient by the hidden
 * units before {@code u1} (before ReLU and dropout are undone); it undoes its own units' ReLU and dropout
 * (the masks are the whole network's, drawn from seed, clock, sample), adds its units' gradients, adds its
 * units' share to the features' gradient and sends both on; stage 0 runs the convolutions backward. Every
 * value is the whole network's bit for bit except the features' gradient, which sums the hidden units'
 * shares stage by stage instead of in one pass, and so the convolutions' gradients, which agree to
 * float rounding.
 */
final class ConvNetStage implements PipelineStage {

    private final ConvNet model;
    private final int index;
    private final int stages;
    private final int u0;
    private final int u1;
    private final DenseLayer units;
    private final int features;
    private final int hidden;
    private final int classes;

    ConvNetStage(final ConvNet model, final int index, final int stages, final int u0, final int u1) {
        this.model = model;
        this.index = index;
        this.stages = stages;
        this.u0 = u0;
        this.u1 = u1;
        this.units = model.dense1().units(u0, u1);
        this.features = model.features();
        this.hidden = model.shape().hidden();
        this.classes = model.outputs();
    }

    /**
     * The first hidden unit of each stage and, last, the number of hidden units: the boundaries nearest to
     * even parameter counts ({@code k * parameters / stages} before stage {@code k}), each stage with one unit
     * at least.
     *
     * @param convolutions the parameters before the hidden layer (stage 0's besides its units)
     * @param perUnit the parameters of one hidden unit (its weights and bias)
     */
    static int[] unitBounds(
            final int parameters, final int convolutions, final int perUnit, final int hiddenUnits, final int stages) {
        final int[] bounds = new int[stages + 1];
        bounds[stages] = hiddenUnits;
        for (int k = 1; k < stages; k++) {
            final double target = ((double) parameters * k / stages - convolutions) / perUnit;
            final int nearest = (int) Math.round(target);
            bounds[k] = Math.min(Math.max(nearest, bounds[k - 1] + 1), hiddenUnits - (stages - k));
        }
        return bounds;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public int stages() {
        return stages;
    }

    private boolean first() {
        return index == 0;
    }

    private boolean last() {
        return index == stages - 1;
    }

    /** The hidden units {@code [from, to)} this stage computes. */
    int firstUnit() {
        return u0;
    }

    int endUnit() {
        return u1;
    }

    @Override
    public List<ParameterRange> parameters() {
        final List<ParameterRange> ranges = new ArrayList<>();
        if (first()) {
            ranges.add(new ParameterRange(0, model.dense1().weightRange().from()));
        }
        ranges.add(units.weightRange());
        ranges.add(units.biasRange());
        if (last()) {
            ranges.add(new ParameterRange(
                    model.dense2().weightRange().from(), model.dense2().end()));
        }
        return merged(ranges);
    }

    private static List<ParameterRange> merged(final List<ParameterRange> sorted) {
        final List<ParameterRange> merged = new ArrayList<>();
        for (final ParameterRange range : sorted) {
            final int lastIndex = merged.size() - 1;
            if (lastIndex >= 0 && merged.get(lastIndex).to() == range.from()) {
                merged.set(lastIndex, new ParameterRange(merged.get(lastIndex).from(), range.to()));
            } else {
                merged.add(range);
            }
        }
        return List.copyOf(merged);
    }

    @Override
    public int inputWidth() {
        return first() ? 0 : features + u0;
    }

    @Override
    public int outputWidth() {
        return last() ? 0 : features + u1;
    }

    /** Stage 0's convolutions, this stage's hidden units (F inputs each), and the last stage's output layer. */
    @Override
    public long multiplyAdds() {
        return (first() ? model.convolutionMultiplyAdds() : 0)
                + (long) features * (u1 - u0)
                + (last() ? (long) hidden * classes : 0);
    }

    @Override
    public StagePass start(final float[] params, final long seed, final long clock) {
        return new Pass(params, seed, clock);
    }

    @Override
    public String toString() {
        return "ConvNetStage[" + index + " of " + stages + ": " + (first() ? "convolutions, " : "") + "hidden units "
                + u0 + ".." + (u1 - 1) + (last() ? ", output layer" : "") + "]";
    }

    /**
     * One micro-batch: its samples, the convolutions' rows (stage 0), the flattened features, the hidden
     * units before {@code u1} (after ReLU and dropout; own units at {@code [u0, u1)}), this stage's masks,
     * the whole hidden layer and the output deltas (last stage), and the loss.
     */
    private record Micro(
            int[] samples,
            Dataset data,
            ConvNet.ConvRows[] convs,
            float[][] flat,
            float[][] before,
            float[][] own,
            float[][] mask,
            float[][] full,
            float[][] logits,
            double loss) {}

    private final class Pass implements StagePass {

        private final float[] params;
        private final long seed;
        private final long clock;
        private final ConvNet.Scratch scratch;
        private final float[][] unitRows;
        private final float[][] unitColumns;
        private final float[][] unitGradient;
        private final float[] unitBiasGradient;
        private final float[][] outputRows;
        private final float[][] outputColumns;
        private final float[][] outputGradient;
        private final float[] outputBiasGradient;
        private final Gather gather;
        private final MicroBatchStates<Micro> micros = new MicroBatchStates<>();

        Pass(final float[] params, final long seed, final long clock) {
            ModelChecks.requireParams(model, params);
            this.params = params;
            this.seed = seed;
            this.clock = clock;
            scratch = first() ? model.newScratch() : null;
            if (scratch != null) {
                scratch.startCall(params);
            }
            final int own = u1 - u0;
            unitRows = new float[own][features];
            unitColumns = new float[features][own];
            units.weightRows(params, unitRows);
            units.weightColumns(params, unitColumns);
            unitGradient = new float[own][features];
            unitBiasGradient = new float[own];
            outputRows = last() ? new float[classes][hidden] : null;
            outputColumns = last() ? new float[hidden][classes] : null;
            if (last()) {
                model.dense2().weightRows(params, outputRows);
                model.dense2().weightColumns(params, outputColumns);
            }
            outputGradient = last() ? new float[classes][hidden] : null;
            outputBiasGradient = last() ? new float[classes] : null;
            gather = new Gather(Math.max(Math.max(features, ConvNet.BLOCK), Math.max(hidden, classes)));
        }

        @Override
        public float[][] forward(final int micro, final Dataset data, final int[] samples, final float[][] in) {
            final int n = samples.length;
            ConvNet.ConvRows[] convs = null;
            final float[][] flat = new float[n][];
            final float[][] before = new float[n][u0];
            if (first()) {
                ModelChecks.requireData(model, data);
                MicroBatchStates.requireNoInput(in);
                convs = new ConvNet.ConvRows[n];
                for (int j = 0; j < n; j++) {
                    convs[j] = model.convRows();
                    final boolean mirrored = model.shape().flip() && ConvNet.flipped(seed, clock, samples[j]);
                    data.copyRow(samples[j], scratch.image, 0);
                    model.forwardConvolutions(params, scratch.image, 0, scratch, convs[j], mirrored);
                    flat[j] = convs[j].flat();
                }
            } else {
                MicroBatchStates.requireRows(in, n, inputWidth(), "input activations");
                for (int j = 0; j < n; j++) {
                    flat[j] = Arrays.copyOfRange(in[j], 0, features);
                    System.arraycopy(in[j], features, before[j], 0, u0);
                }
            }
            final float[][] own = new float[n][u1 - u0];
            units.forward(params, unitColumns, flat, own, n, gather);
            for (int j = 0; j < n; j++) {
                Relu.apply(own[j], u1 - u0);
            }
            final float[][] mask = model.dropout().active() ? new float[n][u1 - u0] : null;
            if (mask != null) {
                model.dropout().applyUnits(own, mask, u0, u1, samples, 0, n, seed, clock, 0);
            }
            float[][] full = null;
            float[][] logits = null;
            double loss = 0;
            float[][] out = null;
            if (last()) {
                ModelChecks.requireClassification(model, data);
                full = new float[n][hidden];
                logits = new float[n][classes];
                for (int j = 0; j < n; j++) {
                    System.arraycopy(before[j], 0, full[j], 0, u0);
                    System.arraycopy(own[j], 0, full[j], u0, u1 - u0);
                }
                model.dense2().forward(params, outputColumns, full, logits, n, gather);
                for (int j = 0; j < n; j++) {
                    loss += SoftmaxCrossEntropy.lossAndDelta(logits[j], 0, classes, (int) data.y()[samples[j]]);
                }
            } else {
                out = new float[n][features + u1];
                for (int j = 0; j < n; j++) {
                    System.arraycopy(flat[j], 0, out[j], 0, features);
                    System.arraycopy(before[j], 0, out[j], features, u0);
                    System.arraycopy(own[j], 0, out[j], features + u0, u1 - u0);
                }
            }
            micros.put(micro, new Micro(samples.clone(), data, convs, flat, before, own, mask, full, logits, loss));
            return out;
        }

        @Override
        public double loss(final int micro) {
            return micros.get(micro).loss();
        }

        @Override
        public float[][] backward(final int micro, final float[][] outGradient) {
            final Micro m = micros.takeForBackward(micro);
            final int n = m.samples().length;
            final int own = u1 - u0;
            // the gradient by the hidden units before u1, and by the features summed over the later stages
            final float[][] hiddenDelta = new float[n][];
            final float[][] laterFeatures = last() ? null : new float[n][];
            if (last()) {
                for (int start = 0; start < n; start += ConvNet.BLOCK) {
                    final int count = Math.min(ConvNet.BLOCK, n - start);
                    final float[][] logits = MicroBatchStates.rows(m.logits(), start, count);
                    final float[][] deltas = new float[count][hidden];
                    model.dense2()
                            .accumulateGradient(
                                    MicroBatchStates.rows(m.full(), start, count),
                                    logits,
                                    outputGradient,
                                    outputBiasGradient,
                                    count,
                                    gather);
                    model.dense2().backpropagate(outputRows, logits, deltas, count, gather);
                    System.arraycopy(deltas, 0, hiddenDelta, start, count);
                }
            } else {
                MicroBatchStates.requireRows(outGradient, n, outputWidth(), "output gradient");
                for (int j = 0; j < n; j++) {
                    laterFeatures[j] = Arrays.copyOfRange(outGradient[j], 0, features);
                    hiddenDelta[j] = Arrays.copyOfRange(outGradient[j], features, features + u1);
                }
            }
            final float[][] ownDelta = new float[n][own];
            for (int j = 0; j < n; j++) {
                System.arraycopy(hiddenDelta[j], u0, ownDelta[j], 0, own);
            }
            if (m.mask() != null) {
                model.dropout().backward(ownDelta, m.mask(), own, n);
            }
            for (int j = 0; j < n; j++) {
                Relu.backward(m.own()[j], ownDelta[j], own);
            }
            final float[][] featureDelta = new float[n][features];
            for (int start = 0; start < n; start += ConvNet.BLOCK) {
                final int count = Math.min(ConvNet.BLOCK, n - start);
                final float[][] delta = MicroBatchStates.rows(ownDelta, start, count);
                units.accumulateGradient(
                        MicroBatchStates.rows(m.flat(), start, count),
                        delta,
                        unitGradient,
                        unitBiasGradient,
                        count,
                        gather);
                units.backpropagate(unitRows, delta, MicroBatchStates.rows(featureDelta, start, count), count, gather);
                if (laterFeatures != null) {
                    for (int j = start; j < start + count; j++) {
                        for (int i = 0; i < features; i++) {
                            featureDelta[j][i] += laterFeatures[j][i];
                        }
                    }
                }
                if (first()) {
                    for (int j = start; j < start + count; j++) {
                        final boolean mirrored = model.shape().flip() && ConvNet.flipped(seed, clock, m.samples()[j]);
                        m.data().copyRow(m.samples()[j], scratch.image, 0);
                        model.backwardConvolutions(scratch.image, 0, scratch, m.convs()[j], featureDelta[j], mirrored);
                    }
                }
            }
            if (first()) {
                return null;
            }
            final float[][] inGradient = new float[n][features + u0];
            for (int j = 0; j < n; j++) {
                System.arraycopy(featureDelta[j], 0, inGradient[j], 0, features);
                System.arraycopy(hiddenDelta[j], 0, inGradient[j], features, u0);
            }
            return inGradient;
        }

        @Override
        public void addTo(final double[] gradientSum) {
            ModelChecks.requireGradient(model, gradientSum);
            if (first()) {
                model.addConvolutionGradients(scratch, gradientSum);
            }
            units.addTo(unitGradient, unitBiasGradient, gradientSum);
            if (last()) {
                model.dense2().addTo(outputGradient, outputBiasGradient, gradientSum);
            }
        }
    }
}
