package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests the multi-layer perceptron's gradient, initialisation, shape and prediction. */
class MlpTest {

    @Test
    void shouldMatchFiniteDifferencesOnEveryParameterWhenNetworkIsTiny() {
        // given: 6 inputs, hidden 5 and 4, 3 classes = 35 + 24 + 15 = 74 parameters, 40 samples (two blocks)
        final Random random = new Random(11);
        final Dataset data = NetworkGradientCheck.randomImages(random, 40, 6, 3);
        final Model model = new Mlp(6, List.of(5, 4), 3);
        final float[] params = model.initialParameters(3);
        addNoise(params, random);
        final int[] samples = random.ints(40, 0, 40).toArray();

        // when / then
        NetworkGradientCheck.assertGradientMatches(
                model, params, data, samples, NetworkGradientCheck.all(model.parameterCount()));
    }

    @Test
    void shouldMatchFiniteDifferencesOnSampledParametersWhenNetworkIsMnistSized() {
        // given: 784-32-16-10 on random images, 400 random parameters
        final Random random = new Random(12);
        final Dataset data = NetworkGradientCheck.randomImages(random, 6, 784, 10);
        final Model model = new Mlp(784, List.of(32, 16), 10);
        final float[] params = model.initialParameters(4);
        addNoise(params, random);

        // when / then
        NetworkGradientCheck.assertGradientMatches(
                model,
                params,
                data,
                new int[] {0, 1, 2, 3, 4, 5, 2},
                NetworkGradientCheck.subset(model.parameterCount(), 400, 5));
    }

    @Test
    void shouldMatchFiniteDifferencesOnEveryParameterWhenDropoutMasksAreFixedBySeedAndClock() {
        // given: 6 inputs, hidden 8 and 6 with dropout 0.3 after each, 40 samples (two blocks)
        final Random random = new Random(15);
        final Dataset data = NetworkGradientCheck.randomImages(random, 40, 6, 3);
        final Model model = Models.create("mlp:8,6,dropout=0.3", 6, 3);
        final float[] params = model.initialParameters(6);
        addNoise(params, random);
        final int[] samples = NetworkGradientCheck.all(40);

        // when / then
        NetworkGradientCheck.assertGradientMatches(
                model, params, data, samples, NetworkGradientCheck.all(model.parameterCount()), 42, 5);
        assertThat(NetworkGradientCheck.loss(model, params, data, samples, 42, 5))
                .isNotEqualTo(NetworkGradientCheck.loss(model, params, data, samples, 42, 6));
    }

    @Test
    void shouldSumOverSamplesWhenSamplesSpanSeveralBlocks() {
        // given
        final Random random = new Random(13);
        final Dataset data = NetworkGradientCheck.randomImages(random, 70, 6, 3);
        final Model model = new Mlp(6, List.of(5), 3);
        final float[] params = model.initialParameters(5);
        final int[] all = NetworkGradientCheck.all(70);
        final double[] whole = new double[model.parameterCount()];
        final double[] parts = new double[model.parameterCount()];

        // when
        final double wholeLoss = model.accumulateGradient(params, data, all, whole);
        double partLoss = 0;
        for (int sample = 0; sample < 70; sample++) {
            partLoss += model.accumulateGradient(params, data, new int[] {sample}, parts);
        }

        // then
        assertThat(wholeLoss).isCloseTo(partLoss, within(1e-9 * partLoss));
        assertThat(whole).containsExactly(parts, within(1e-4));
    }

    @Test
    void shouldLowerTheLossWhenTrainedBriefly() {
        // given: 64 random 64-pixel images of 10 classes
        final Random random = new Random(14);
        final Dataset data = NetworkGradientCheck.randomImages(random, 64, 64, 10);
        final Model model = Models.create("mlp:32,16", 64, 10);
        final BatchPlan plan = new BatchPlan(64, 16, 3);

        // when: 20 epochs of Adam with a cosine schedule
        final float[] trained = ReferenceTrainer.trainUnsharded(
                model, data, plan, Optimizers.adam(0.01, 0.9, 0.999, 1e-8), LearningRateSchedule.cosine(80), 80, 16);

        // then: random labels, so it can only memorise them, and it has begun to
        assertThat(Evaluation.meanLoss(model, trained, data))
                .isLessThan(0.8 * Evaluation.meanLoss(model, model.initialParameters(16), data));
    }

    @Test
    void shouldDrawHeScaledWeightsAndZeroBiasesWhenInitialised() {
        // given
        final Mlp model = new Mlp(784, List.of(256, 128), 10);

        // when
        final float[] params = model.initialParameters(42);

        // then: first layer's weights have variance 2 / 784, its biases are 0, same seed same vector
        double squares = 0;
        for (int i = 0; i < 784 * 256; i++) {
            squares += params[i] * params[i];
        }
        assertThat(squares / (784 * 256)).isCloseTo(2.0 / 784, within(0.05 * 2.0 / 784));
        for (int i = 784 * 256; i < 785 * 256; i++) {
            assertThat(params[i]).isZero();
        }
        assertThat(model.initialParameters(42)).isEqualTo(params);
        assertThat(model.parameterCount()).isEqualTo(785 * 256 + 257 * 128 + 129 * 10);
    }

    @Test
    void shouldPredictLargestLogitWhenPredicting() {
        // given: no hidden layer, W rows (1, 0), (0, 1), b = 0
        final Dataset data = new Dataset("points", 2, new float[] {2, 1, 0, 3}, new float[] {0, 1}, 2);
        final Model model = new Mlp(2, List.of(), 2);
        final float[] params = {1, 0, 0, 1, 0, 0};

        // when / then
        assertThat(model.predict(params, data, 0)).isEqualTo(0f);
        assertThat(model.predict(params, data, 1)).isEqualTo(1f);
    }

    @Test
    void shouldPredictARangeAsTheLayersWeightsBiasesAndReluSay() {
        // given: 3 inputs, a hidden layer of 4 units, 3 classes; small whole numbers, so every sum is exact in
        // float whatever its order, and many samples with zero inputs (skipped by the forward pass)
        final int inputs = 3;
        final int hidden = 4;
        final int classes = 3;
        final Mlp model = new Mlp(inputs, List.of(hidden), classes);
        final Random random = new Random(3);
        final float[] params = new float[model.parameterCount()];
        for (int i = 0; i < params.length; i++) {
            params[i] = random.nextInt(7) - 3;
        }
        final int samples = 40;
        final float[] x = new float[samples * inputs];
        for (int i = 0; i < x.length; i++) {
            x[i] = random.nextInt(3) == 0 ? 0 : random.nextInt(5) - 2;
        }
        final Dataset data = new Dataset("small", inputs, x, new float[samples], classes);
        final float[] predictions = new float[samples];

        // when: a range that leaves the first and last samples out
        model.predict(params, data, 1, samples - 1, predictions);

        // then: each is the argmax of W2 relu(W1 x + b1) + b2 (rows of inputs per unit, then biases)
        final int b1 = hidden * inputs;
        final int w2 = b1 + hidden;
        final int b2 = w2 + classes * hidden;
        assertThat(predictions[0]).isZero();
        assertThat(predictions[samples - 1]).isZero();
        for (int s = 1; s < samples - 1; s++) {
            final float[] h = new float[hidden];
            for (int u = 0; u < hidden; u++) {
                float sum = params[b1 + u];
                for (int i = 0; i < inputs; i++) {
                    sum += params[u * inputs + i] * x[s * inputs + i];
                }
                h[u] = Math.max(0, sum);
            }
            int best = 0;
            float bestLogit = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < classes; c++) {
                float logit = params[b2 + c];
                for (int u = 0; u < hidden; u++) {
                    logit += params[w2 + c * hidden + u] * h[u];
                }
                if (logit > bestLogit) {
                    best = c;
                    bestLogit = logit;
                }
            }
            assertThat(predictions[s]).as("sample %d", s).isEqualTo(best);
            assertThat(model.predict(params, data, s)).isEqualTo(best);
        }
    }

    @Test
    void shouldParseHiddenLayersWhenKindHasSuffix() {
        // given / when
        final Model wide = Models.create("mlp:512,256", 784, 10);
        final Model plain = Models.create("mlp:", 784, 10);
        final Model standard = Models.create("MLP", 784, 10);

        // then
        assertThat(wide.kind()).isEqualTo("mlp:512,256");
        assertThat(wide.parameterCount()).isEqualTo(785 * 512 + 513 * 256 + 257 * 10);
        assertThat(plain.parameterCount()).isEqualTo(785 * 10);
        assertThat(standard.kind()).isEqualTo("mlp");
        final Model dropout = Models.create("mlp:64,32,dropout=0.2", 784, 10);
        assertThat(dropout.kind()).isEqualTo("mlp:64,32,dropout=0.2");
        assertThat(Models.create(dropout.kind(), 784, 10).toString()).isEqualTo(dropout.toString());
        assertThatThrownBy(() -> Models.create("mlp:dropout=0.2,64", 784, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must come after the numbers");
        assertThatThrownBy(() -> Models.create("mlp:256,x", 784, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option 'x'");
        assertThatThrownBy(() -> Models.create("mlp:256,1.5", 784, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'1.5' is not a whole number");
    }

    @Test
    void shouldRejectDataWhenClassCountDiffers() {
        // given
        final Dataset data = new Dataset("two", 1, new float[] {1}, new float[] {0}, 2);
        final Model model = new Mlp(1, List.of(2), 3);

        // when / then
        assertThatThrownBy(() -> model.accumulateGradient(
                        new float[model.parameterCount()], data, new int[] {0}, new double[model.parameterCount()]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 classes");
    }

    /** Moves biases off zero so that their gradients and the kinks of ReLU are exercised. */
    private static void addNoise(final float[] params, final Random random) {
        for (int i = 0; i < params.length; i++) {
            params[i] += (float) (0.1 * random.nextGaussian());
        }
    }
}
