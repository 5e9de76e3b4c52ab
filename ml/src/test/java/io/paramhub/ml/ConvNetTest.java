package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests the convolutional network's gradient, shape, initialisation and prediction. */
class ConvNetTest {

    @Test
    void shouldMatchFiniteDifferencesOnEveryParameterWhenNetworkIsTiny() {
        // given: 14 x 14 images, 3 x 3 kernels, 2 and 3 channels, 4 hidden units:
        // 14 -> 2 x 12 x 12 -> 2 x 6 x 6 -> 3 x 4 x 4 -> 3 x 2 x 2 -> 4 -> 5 classes
        final Random random = new Random(21);
        final Dataset data = NetworkGradientCheck.randomImages(random, 6, 196, 5);
        final Model model = new ConvNet(196, List.of(3, 2, 3, 4), 5);
        final float[] params = model.initialParameters(7);
        addNoise(params, random);

        // when / then
        assertThat(model.parameterCount()).isEqualTo(2 * 10 + 3 * 19 + 4 * 13 + 5 * 5);
        NetworkGradientCheck.assertGradientMatches(
                model, params, data, new int[] {0, 1, 2, 3, 4, 5, 1}, NetworkGradientCheck.all(model.parameterCount()));
    }

    @Test
    void shouldMatchFiniteDifferencesOnSampledParametersWhenKernelIsFiveWide() {
        // given: 20 x 20 images, 5 x 5 kernels like the default cnn:
        // 20 -> 4 x 16 x 16 -> 4 x 8 x 8 -> 6 x 4 x 4 -> 6 x 2 x 2 -> 8 -> 10 classes; 400 of 1,000 parameters
        final Random random = new Random(22);
        final Dataset data = NetworkGradientCheck.randomImages(random, 3, 400, 10);
        final Model model = Models.create("cnn:5,4,6,8", 400, 10);
        final float[] params = model.initialParameters(8);
        addNoise(params, random);

        // when / then
        NetworkGradientCheck.assertGradientMatches(
                model, params, data, new int[] {0, 1, 2}, NetworkGradientCheck.subset(model.parameterCount(), 400, 9));
    }

    @Test
    void shouldMatchFiniteDifferencesOnEveryParameterWhenConvolutionsArePadded() {
        // given: 12 x 12 images, 3 x 3 kernels padded by 1, 2 and 3 channels, 4 hidden units:
        // 12 -> 2 x 12 x 12 -> 2 x 6 x 6 -> 3 x 6 x 6 -> 3 x 3 x 3 -> 4 -> 5 classes
        final Random random = new Random(25);
        final Dataset data = NetworkGradientCheck.randomImages(random, 6, 144, 5);
        final Model model = Models.create("cnn:3,2,3,4,1", 144, 5);
        final float[] params = model.initialParameters(11);
        addNoise(params, random);

        // when / then
        assertThat(model.parameterCount()).isEqualTo(2 * 10 + 3 * 19 + 4 * 28 + 5 * 5);
        NetworkGradientCheck.assertGradientMatches(
                model, params, data, new int[] {0, 1, 2, 3, 4, 5, 3}, NetworkGradientCheck.all(model.parameterCount()));
    }

    @Test
    void shouldMatchFiniteDifferencesOnEveryParameterWhenDropoutMasksAreFixedBySeedAndClock() {
        // given: the padded network with dropout 0.5 on its 8 hidden units; (seed, clock) fix the masks
        final Random random = new Random(26);
        final Dataset data = NetworkGradientCheck.randomImages(random, 6, 144, 5);
        final Model model = Models.create("cnn:3,2,3,8,1,dropout=0.5", 144, 5);
        final float[] params = model.initialParameters(12);
        addNoise(params, random);

        // when / then: at two different clocks, so two different sets of masks
        NetworkGradientCheck.assertGradientMatches(
                model,
                params,
                data,
                new int[] {0, 1, 2, 3, 4, 5},
                NetworkGradientCheck.all(model.parameterCount()),
                42,
                3);
        NetworkGradientCheck.assertGradientMatches(
                model,
                params,
                data,
                new int[] {0, 1, 2, 3, 4, 5},
                NetworkGradientCheck.all(model.parameterCount()),
                42,
                4);
    }

    @Test
    void shouldDrawDropoutMasksPerSampleFromSeedAndClockAlone() {
        // given
        final Random random = new Random(27);
        final Dataset data = NetworkGradientCheck.randomImages(random, 8, 144, 5);
        final Model model = Models.create("cnn:3,2,3,16,1,dropout=0.5", 144, 5);
        final float[] params = model.initialParameters(13);
        final int[] all = NetworkGradientCheck.all(8);

        // when
        final double[] whole = gradient(model, params, data, all, 7, 3);
        final double[] chunks = gradient(model, params, data, new int[] {0, 1, 2}, 7, 3);
        final double[] rest = gradient(model, params, data, new int[] {3, 4, 5, 6, 7}, 7, 3);
        final double[] again = gradient(model, params, data, all, 7, 3);
        final double[] nextClock = gradient(model, params, data, all, 7, 4);
        final double[] otherSeed = gradient(model, params, data, all, 8, 3);

        // then: a sample's mask does not depend on which samples share its call, only on seed and clock
        for (int i = 0; i < whole.length; i++) {
            chunks[i] += rest[i];
        }
        assertThat(whole).containsExactly(chunks, within(1e-5));
        assertThat(again).isEqualTo(whole);
        assertThat(maxDifference(nextClock, whole)).isGreaterThan(1e-3);
        assertThat(maxDifference(otherSeed, whole)).isGreaterThan(1e-3);
    }

    @Test
    void shouldTrainOnTheMirroredImageWhenTheSampleIsDrawnForFlipping() {
        // given: an image, its mirror image as sample 1, and a clock at which sample 0 is drawn for flipping
        final Random random = new Random(30);
        final Dataset one = NetworkGradientCheck.randomImages(random, 1, 144, 5);
        final float[] x = Arrays.copyOf(one.x(), 288);
        for (int y = 0; y < 12; y++) {
            for (int col = 0; col < 12; col++) {
                x[144 + y * 12 + col] = one.x()[y * 12 + 11 - col];
            }
        }
        final Dataset data = new Dataset("mirrored", 144, x, new float[] {one.y()[0], one.y()[0]}, 5);
        final Model flipping = Models.create("cnn:3,2,3,8,1,flip", 144, 5);
        final Model plain = Models.create("cnn:3,2,3,8,1", 144, 5);
        final float[] params = plain.initialParameters(16);
        long flipClock = 0;
        while (!ConvNet.flipped(42, flipClock, 0)) {
            flipClock++;
        }
        long keepClock = 0;
        while (ConvNet.flipped(42, keepClock, 0)) {
            keepClock++;
        }

        // when
        final double[] flipped = gradient(flipping, params, data, new int[] {0}, 42, flipClock);
        final double[] kept = gradient(flipping, params, data, new int[] {0}, 42, keepClock);

        // then: the same bits as the plain network's on the mirror image, or on the image itself
        assertThat(flipped).isEqualTo(gradient(plain, params, data, new int[] {1}, 42, flipClock));
        assertThat(kept).isEqualTo(gradient(plain, params, data, new int[] {0}, 42, keepClock));
        assertThat(flipping.predict(params, data, 0)).isEqualTo(plain.predict(params, data, 0));
    }

    @Test
    void shouldMatchFiniteDifferencesOnEveryParameterWhenFlipsAndDropoutAreFixedBySeedAndClock() {
        // given
        final Random random = new Random(32);
        final Dataset data = NetworkGradientCheck.randomImages(random, 6, 144, 5);
        final Model model = Models.create("cnn:3,2,3,8,1,dropout=0.5,flip", 144, 5);
        final float[] params = model.initialParameters(17);
        addNoise(params, random);

        // when / then
        NetworkGradientCheck.assertGradientMatches(
                model,
                params,
                data,
                new int[] {0, 1, 2, 3, 4, 5},
                NetworkGradientCheck.all(model.parameterCount()),
                42,
                9);
    }

    @Test
    void shouldPredictWithEveryUnitWhenTheNetworkHasDropout() {
        // given: the same parameters with and without dropout
        final Random random = new Random(28);
        final Dataset data = NetworkGradientCheck.randomImages(random, 20, 144, 5);
        final Model dropout = Models.create("cnn:3,2,3,16,1,dropout=0.5", 144, 5);
        final Model plain = Models.create("cnn:3,2,3,16,1", 144, 5);
        final float[] params = dropout.initialParameters(14);

        // when / then
        for (int sample = 0; sample < 20; sample++) {
            assertThat(dropout.predict(params, data, sample)).isEqualTo(plain.predict(params, data, sample));
        }
    }

    @Test
    void shouldLowerTheLossWhenTrainedBriefly() {
        // given: 48 random images of 4 classes, the padded network with dropout
        final Random random = new Random(29);
        final Dataset data = NetworkGradientCheck.randomImages(random, 48, 144, 4);
        final Model model = Models.create("cnn:3,4,8,16,1,dropout=0.25", 144, 4);
        final BatchPlan plan = new BatchPlan(48, 16, 3);

        // when: 10 epochs of Adam with a cosine schedule
        final float[] trained = ReferenceTrainer.trainUnsharded(
                model, data, plan, Optimizers.adam(0.01, 0.9, 0.999, 1e-8), LearningRateSchedule.cosine(30), 30, 15);

        // then: the mean loss without dropout (the same layout without it) fell by more than half
        final Model withoutDropout = Models.create("cnn:3,4,8,16,1", 144, 4);
        assertThat(Evaluation.meanLoss(withoutDropout, trained, data))
                .isLessThan(0.5 * Evaluation.meanLoss(withoutDropout, model.initialParameters(15), data));
    }

    @Test
    void shouldHaveDocumentedShapeWhenKindIsCnn() {
        // given / when
        final ConvNet model = (ConvNet) Models.create("cnn", 784, 10);

        // then: conv 32 x 1 x 3 x 3, conv 64 x 32 x 3 x 3 (padded: 28 -> 14 -> 7), dense 3136 -> 128, dense 128 -> 10
        assertThat(model.kind()).isEqualTo("cnn");
        assertThat(model.shape()).isEqualTo(new ConvShape(3, 32, 64, 128, 1, 0.5, false));
        assertThat(model.parameterCount()).isEqualTo(32 * 10 + 64 * 289 + 128 * 3137 + 10 * 129);
    }

    @Test
    void shouldReadTheValidConvolutionNetworkWithoutDropoutWhenKindHasFourNumbers() {
        // given / when
        final ConvNet model = (ConvNet) Models.create("cnn:5,16,32,128", 784, 10);

        // then: the network that was the default cnn before padding and dropout
        assertThat(model.shape()).isEqualTo(new ConvShape(5, 16, 32, 128, 0, 0, false));
        assertThat(model.parameterCount()).isEqualTo(16 * 26 + 32 * 401 + 128 * 513 + 10 * 129);
        assertThat(model.kind()).isEqualTo("cnn:5,16,32,128");
    }

    @Test
    void shouldKeepArchitectureInKindWhenShapeIsNotDefault() {
        // 14 x 14 images for the valid convolutions (14 -> 12 -> 6 -> 4 -> 2), 12 x 12 for the padded ones
        final Map<String, Integer> kinds = Map.of(
                "cnn:3,4,8,16",
                196,
                "cnn:3,4,8,16,1",
                144,
                "cnn:3,4,8,16,1,dropout=0.25",
                144,
                "cnn:3,4,8,16,1,dropout=0.25,flip",
                144,
                "cnn:3,4,8,16,1,flip",
                144);
        for (final Map.Entry<String, Integer> entry : kinds.entrySet()) {
            // given
            final String kind = entry.getKey();
            final Model model = Models.create(kind, entry.getValue(), 10);

            // when
            final Model again = Models.create(model.kind(), entry.getValue(), 10);

            // then
            assertThat(model.kind()).isEqualTo(kind);
            assertThat(again.parameterCount()).isEqualTo(model.parameterCount());
            assertThat(((ConvNet) again).shape()).isEqualTo(((ConvNet) model).shape());
        }
        assertThatThrownBy(() -> Models.create("cnn:3,4,8", 144, 10)).hasMessageContaining("K,C1,C2,H");
        assertThatThrownBy(() -> Models.create("cnn:3,4,8,16,1,dropout=half", 144, 10))
                .hasMessageContaining("half");
        assertThatThrownBy(() -> Models.create("cnn:3,4,8,16,1,dropout=1.0", 144, 10))
                .hasMessageContaining("dropout");
        assertThatThrownBy(() -> Models.create("cnn:3,4,8,16,1,rotate", 144, 10))
                .hasMessageContaining("unknown option");
        assertThatThrownBy(() -> Models.create("cnn:3,4,8,16,flip,1", 144, 10))
                .hasMessageContaining("after the numbers");
    }

    @Test
    void shouldRejectShapeWhenPoolingWouldSeeAnOddSide() {
        // given: 28 - 4 + 1 = 25 is odd

        // when / then
        assertThatThrownBy(() -> Models.create("cnn:4,2,2,2", 784, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("even");
    }

    @Test
    void shouldPredictTheClassWhoseLossIsSmallestWhenPredicting() {
        // given
        final Random random = new Random(23);
        final Dataset data = NetworkGradientCheck.randomImages(random, 5, 196, 5);
        final Model model = new ConvNet(196, List.of(3, 2, 3, 4), 5);
        final float[] params = model.initialParameters(9);

        // when
        final int predicted = (int) model.predict(params, data, 2);

        // then: relabelled as the predicted class, the sample's loss is the smallest of all labels
        final double predictedLoss = lossWithLabel(model, params, data, 2, predicted);
        for (int label = 0; label < 5; label++) {
            assertThat(predictedLoss).isLessThanOrEqualTo(lossWithLabel(model, params, data, 2, label) + 1e-9);
        }
    }

    @Test
    void shouldGiveSameGradientWhenSplitIntoChunks() {
        // given
        final Random random = new Random(24);
        final Dataset data = NetworkGradientCheck.randomImages(random, 8, 196, 5);
        final Model model = new ConvNet(196, List.of(3, 2, 3, 4), 5);
        final float[] params = model.initialParameters(10);
        final double[] whole = new double[model.parameterCount()];
        final double[] chunks = new double[model.parameterCount()];

        // when
        final double wholeLoss = model.accumulateGradient(params, data, NetworkGradientCheck.all(8), whole);
        final double chunkLoss = model.accumulateGradient(params, data, new int[] {0, 1, 2}, chunks)
                + model.accumulateGradient(params, data, new int[] {3, 4, 5, 6, 7}, chunks);

        // then
        assertThat(wholeLoss).isCloseTo(chunkLoss, within(1e-9));
        assertThat(whole).containsExactly(chunks, within(1e-5));
    }

    private static double[] gradient(
            final Model model,
            final float[] params,
            final Dataset data,
            final int[] samples,
            final long seed,
            final long clock) {
        final double[] gradient = new double[model.parameterCount()];
        model.accumulateGradient(params, data, samples, gradient, seed, clock);
        return gradient;
    }

    private static double maxDifference(final double[] a, final double[] b) {
        double max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs(a[i] - b[i]));
        }
        return max;
    }

    private static double lossWithLabel(
            final Model model, final float[] params, final Dataset data, final int sample, final int label) {
        final float[] x = Arrays.copyOfRange(data.x(), sample * 196, (sample + 1) * 196);
        final Dataset one = new Dataset("one", 196, x, new float[] {label}, data.classes());
        return GradientCheck.loss(model, params, one, new int[] {0});
    }

    private static void addNoise(final float[] params, final Random random) {
        for (int i = 0; i < params.length; i++) {
            params[i] += (float) (0.1 * random.nextGaussian());
        }
    }
}
