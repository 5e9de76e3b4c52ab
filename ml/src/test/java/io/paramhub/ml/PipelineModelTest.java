package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests that a model cut into pipeline stages computes the gradient the whole model computes. */
class PipelineModelTest {

    private static final long SEED = 17;
    private static final long CLOCK = 3;

    private static int[] samples(final int count, final int dataSize, final long seed) {
        final Random random = new Random(seed);
        final int[] samples = new int[count];
        for (int i = 0; i < count; i++) {
            samples[i] = random.nextInt(dataSize);
        }
        return samples;
    }

    private static float[] noisyParameters(final Model model) {
        final float[] params = model.initialParameters(5);
        final Random random = new Random(9);
        for (int i = 0; i < params.length; i++) {
            params[i] += (float) (0.01 * random.nextGaussian());
        }
        return params;
    }

    private static double[] whole(final Model model, final float[] params, final Dataset data, final int[] samples) {
        final double[] sum = new double[model.parameterCount()];
        model.accumulateGradient(params, data, samples, sum, SEED, CLOCK);
        return sum;
    }

    private static double[] staged(
            final PipelineModel model,
            final int stages,
            final int microBatches,
            final float[] params,
            final Dataset data,
            final int[] samples) {
        final double[] sum = new double[model.parameterCount()];
        PipelineGradient.accumulate(
                model,
                stages,
                params,
                data,
                MicroBatches.split(samples, microBatches, model.block()),
                sum,
                SEED,
                CLOCK);
        return sum;
    }

    /** The largest difference in {@code [from, to)}, relative to the largest gradient value there. */
    private static double relativeDifference(
            final double[] actual, final double[] expected, final int from, final int to) {
        double difference = 0;
        double largest = 0;
        for (int i = from; i < to; i++) {
            difference = Math.max(difference, Math.abs(actual[i] - expected[i]));
            largest = Math.max(largest, Math.abs(expected[i]));
        }
        return difference / largest;
    }

    @Test
    void shouldGiveTheWholeMlpsGradientBitForBitWhenCutIntoStages() {
        // given an MLP with dropout and 100 samples: blocks of 32, 32, 32, 4, in 1 to 3 micro-batches
        final Random random = new Random(1);
        final Dataset data = NetworkGradientCheck.randomImages(random, 60, 36, 4);
        final PipelineModel model = (PipelineModel) Models.create("mlp:24,12,dropout=0.3", 36, 4);
        final float[] params = noisyParameters(model);
        final int[] samples = samples(100, data.size(), 2);
        final double[] expected = whole(model, params, data, samples);

        for (int stages = 1; stages <= model.maxStages(); stages++) {
            for (int micro = 1; micro <= 3; micro++) {
                // when
                final double[] actual = staged(model, stages, micro, params, data, samples);

                // then
                assertThat(actual)
                        .as("%d stages, %d micro-batches", stages, micro)
                        .containsExactly(expected);
            }
        }
        assertThat(Arrays.stream(expected).filter(v -> v != 0).count()).isGreaterThan(model.parameterCount() / 2);
    }

    @Test
    void shouldGiveTheWholeCnnsGradientWhenItsHiddenLayerIsSplitBetweenStages() {
        // given a small CNN with dropout and mirrored images, 70 samples in up to 3 micro-batches
        final Random random = new Random(3);
        final Dataset data = NetworkGradientCheck.randomImages(random, 50, 144, 5);
        final ConvNet model = (ConvNet) Models.create("cnn:3,4,8,16,1,dropout=0.5,flip", 144, 5);
        final float[] params = noisyParameters(model);
        final int[] samples = samples(70, data.size(), 4);
        final double[] expected = whole(model, params, data, samples);
        final int convolutions = model.dense1().weightRange().from();

        // when one stage: every value the same
        assertThat(staged(model, 1, 2, params, data, samples)).containsExactly(expected);
        for (int stages = 2; stages <= 4; stages++) {
            for (int micro = 1; micro <= 3; micro++) {
                // when
                final double[] actual = staged(model, stages, micro, params, data, samples);

                // then the dense layers' gradients to the bit; the convolutions' to float rounding, since
                // the features' gradient sums the hidden units stage by stage
                assertThat(Arrays.copyOfRange(actual, convolutions, actual.length))
                        .as("%d stages, %d micro-batches", stages, micro)
                        .containsExactly(Arrays.copyOfRange(expected, convolutions, expected.length));
                assertThat(relativeDifference(actual, expected, 0, convolutions))
                        .as("%d stages, %d micro-batches", stages, micro)
                        .isLessThan(1e-6);
            }
        }
    }

    @Test
    void shouldGiveTheDefaultCnnsGradientWithTwoStagesOfUnderSixtyPercentEach() {
        // given the default cnn (421,642 parameters, 95% in the hidden layer) and 40 images
        final Random random = new Random(5);
        final Dataset data = NetworkGradientCheck.randomImages(random, 40, 784, 10);
        final ConvNet model = (ConvNet) Models.create("cnn", 784, 10);
        final float[] params = noisyParameters(model);
        final int[] samples = samples(40, data.size(), 6);

        // when
        final PipelineStage first = model.stage(0, 2);
        final PipelineStage second = model.stage(1, 2);
        final double[] expected = whole(model, params, data, samples);
        final double[] actual = staged(model, 2, 2, params, data, samples);

        // then stage 0: convolutions and hidden units 0..60; stage 1: units 61..127 and the output layer
        assertThat(first.parameterCount()).isEqualTo(210_173);
        assertThat(second.parameterCount()).isEqualTo(211_469);
        assertThat(first.parameterCount() + second.parameterCount()).isEqualTo(model.parameterCount());
        assertThat((double) Math.max(first.parameterCount(), second.parameterCount()) / model.parameterCount())
                .isLessThan(0.6);
        assertThat(first.outputWidth()).isEqualTo(3136 + 61);
        assertThat(second.inputWidth()).isEqualTo(3136 + 61);
        final int convolutions = model.dense1().weightRange().from();
        // the index of the first value that differs in its bits, or -1 (containsExactly took 20 s on 402,826 values)
        assertThat(Arrays.mismatch(
                        Arrays.copyOfRange(actual, convolutions, actual.length),
                        Arrays.copyOfRange(expected, convolutions, expected.length)))
                .as("the first dense-layer value that differs")
                .isEqualTo(-1);
        assertThat(relativeDifference(actual, expected, 0, convolutions)).isLessThan(1e-6);
    }

    @Test
    void shouldCutEveryParameterIntoExactlyOneStage() {
        final List<PipelineModel> models = List.of(
                (PipelineModel) Models.create("mlp:24,12,8", 36, 4),
                (PipelineModel) Models.create("cnn:3,4,8,16,1", 144, 5),
                (PipelineModel) Models.create("cnn", 784, 10));
        for (final PipelineModel model : models) {
            for (int stages = 1; stages <= Math.min(4, model.maxStages()); stages++) {
                // when
                final List<ParameterRange> all = new ArrayList<>();
                for (int k = 0; k < stages; k++) {
                    all.addAll(model.stage(k, stages).parameters());
                }

                // then
                all.sort((a, b) -> Integer.compare(a.from(), b.from()));
                int next = 0;
                for (final ParameterRange range : all) {
                    assertThat(range.from())
                            .as("%s in %d stages", model.kind(), stages)
                            .isEqualTo(next);
                    next = range.to();
                }
                assertThat(next).isEqualTo(model.parameterCount());
            }
        }
    }

    @Test
    void shouldRefuseBackwardOutOfOrderAndTooManyStages() {
        // given
        final Random random = new Random(7);
        final Dataset data = NetworkGradientCheck.randomImages(random, 8, 36, 4);
        final PipelineModel model = (PipelineModel) Models.create("mlp:24", 36, 4);
        final StagePass pass = model.stage(1, 2).start(model.initialParameters(1), 1, 0);
        final StagePass firstPass = model.stage(0, 2).start(model.initialParameters(1), 1, 0);
        final float[][] a0 = firstPass.forward(0, data, new int[] {0, 1}, null);
        final float[][] a1 = firstPass.forward(1, data, new int[] {2, 3}, null);
        pass.forward(0, data, new int[] {0, 1}, a0);
        pass.forward(1, data, new int[] {2, 3}, a1);

        // when / then
        assertThatThrownBy(() -> pass.backward(1, null)).hasMessageContaining("expected 0, got 1");
        assertThatThrownBy(() -> model.stage(0, 3)).hasMessageContaining("1 to 2 stages");
        assertThatThrownBy(() -> firstPass.forward(2, data, new int[] {4}, new float[0][]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSplitAShareIntoMicroBatchesOfWholeBlocks() {
        final int[] share = new int[100];
        Arrays.setAll(share, i -> i);

        assertThat(MicroBatches.split(share, 2, 32)).extracting(m -> m.length).containsExactly(64, 36);
        assertThat(MicroBatches.split(share, 4, 32)).extracting(m -> m.length).containsExactly(32, 32, 32, 4);
        assertThat(MicroBatches.split(share, 8, 32)).extracting(m -> m.length).containsExactly(32, 32, 32, 4);
        assertThat(MicroBatches.split(share, 3, 1)).extracting(m -> m.length).containsExactly(34, 33, 33);
        assertThat(MicroBatches.split(new int[0], 3, 32)).isEmpty();
        assertThat(MicroBatches.split(share, 3, 32).get(1)[0]).isEqualTo(64);
    }

    @Test
    void shouldBalanceMlpStagesByParameterCount() {
        assertThat(StageCuts.balanced(new long[] {10, 10, 10, 10}, 2)).containsExactly(0, 2, 4);
        assertThat(StageCuts.balanced(new long[] {100, 1, 1, 1}, 2)).containsExactly(0, 1, 4);
        assertThat(StageCuts.balanced(new long[] {5, 5, 20}, 3)).containsExactly(0, 1, 2, 3);
        assertThatThrownBy(() -> StageCuts.balanced(new long[] {1, 2}, 3)).hasMessageContaining("1 to 2 stages");
    }
}
