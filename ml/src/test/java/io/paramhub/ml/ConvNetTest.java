package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
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
        NetworkGradientCheck.assertGradientMatches(model, params, data, new int[] {0, 1, 2, 3, 4, 5, 1},
            NetworkGradientCheck.all(model.parameterCount()));
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
        NetworkGradientCheck.assertGradientMatches(model, params, data, new int[] {0, 1, 2},
            NetworkGradientCheck.subset(model.parameterCount(), 400, 9));
    }

    @Test
    void shouldHaveDocumentedShapeWhenKindIsCnn() {
        // given / when
        final Model model = Models.create("cnn", 784, 10);

        // then: conv 16 x 1 x 5 x 5, conv 32 x 16 x 5 x 5, dense 512 -> 128, dense 128 -> 10
        assertThat(model.kind()).isEqualTo("cnn");
        assertThat(model.parameterCount()).isEqualTo(16 * 26 + 32 * 401 + 128 * 513 + 10 * 129);
    }

    @Test
    void shouldKeepArchitectureInKindWhenShapeIsNotDefault() {
        // given
        final Model model = Models.create("cnn:3,4,8,16", 196, 10);

        // when
        final Model again = Models.create(model.kind(), 196, 10);

        // then
        assertThat(model.kind()).isEqualTo("cnn:3,4,8,16");
        assertThat(again.parameterCount()).isEqualTo(model.parameterCount());
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

    private static double lossWithLabel(final Model model, final float[] params, final Dataset data, final int sample,
                                        final int label) {
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
