package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests softmax regression's loss, gradient and prediction. */
class SoftmaxRegressionTest {

    private static Dataset randomClassification(
            final Random random, final int samples, final int features, final int classes) {
        final float[] y = new float[samples];
        for (int i = 0; i < samples; i++) {
            y[i] = random.nextInt(classes);
        }
        return new Dataset("random", features, GradientCheck.gaussian(random, samples * features, 1), y, classes);
    }

    @Test
    void shouldMatchFiniteDifferencesWhenDifferentiatingOnRandomProblem() {
        // given
        final Random random = new Random(5);
        final Dataset data = randomClassification(random, 8, 5, 3);
        final Model model = new SoftmaxRegression(5, 3);
        final float[] params = GradientCheck.gaussian(random, model.parameterCount(), 0.7);

        // when / then
        GradientCheck.assertGradientMatchesFiniteDifferences(model, params, data, new int[] {0, 1, 3, 4, 7, 3});
    }

    @Test
    void shouldMatchFiniteDifferencesWhenFeatureCountIsNotAMultipleOfFour() {
        // given
        final Random random = new Random(6);
        final Dataset data = randomClassification(random, 5, 7, 4);
        final Model model = new SoftmaxRegression(7, 4);
        final float[] params = GradientCheck.gaussian(random, model.parameterCount(), 0.3);

        // when / then
        GradientCheck.assertGradientMatchesFiniteDifferences(model, params, data, new int[] {0, 1, 2, 3, 4});
    }

    @Test
    void shouldGiveLogOfClassCountWhenParametersAreZero() {
        // given
        final Random random = new Random(7);
        final Dataset data = randomClassification(random, 4, 3, 5);
        final Model model = new SoftmaxRegression(3, 5);

        // when
        final double loss = GradientCheck.loss(model, new float[model.parameterCount()], data, new int[] {0, 1, 2});

        // then
        assertThat(loss).isCloseTo(3 * Math.log(5), within(1e-12));
    }

    @Test
    void shouldStayFiniteWhenLogitsAreHuge() {
        // given: logits of about ±1000 overflow a naive exp
        final Dataset data = new Dataset("huge", 1, new float[] {1, 1}, new float[] {0, 1}, 2);
        final Model model = new SoftmaxRegression(1, 2);
        final float[] params = {1000, -1000, 0, 0};
        final double[] gradient = new double[4];

        // when
        final double loss = model.accumulateGradient(params, data, new int[] {0, 1}, gradient);

        // then: sample 0 is certain and right (loss 0), sample 1 certain and wrong (loss 2000)
        assertThat(loss).isCloseTo(2000, within(1e-9));
        assertThat(gradient).containsExactly(new double[] {1, -1, 1, -1}, within(1e-12));
    }

    @Test
    void shouldPredictClassWithLargestLogitWhenPredicting() {
        // given: W rows (1, 0), (0, 1), (-1, -1), b = 0
        final Dataset data = new Dataset("points", 2, new float[] {2, 1, 0, 3, -1, -2}, new float[] {0, 1, 2}, 3);
        final Model model = new SoftmaxRegression(2, 3);
        final float[] params = {1, 0, 0, 1, -1, -1, 0, 0, 0};

        // when / then
        assertThat(model.predict(params, data, 0)).isEqualTo(0f);
        assertThat(model.predict(params, data, 1)).isEqualTo(1f);
        assertThat(model.predict(params, data, 2)).isEqualTo(2f);
    }

    @Test
    void shouldRejectDataWhenClassCountDiffers() {
        // given
        final Dataset data = new Dataset("two", 1, new float[] {1}, new float[] {0}, 2);

        // when / then
        assertThatThrownBy(() -> new SoftmaxRegression(1, 3)
                        .accumulateGradient(new float[6], data, new int[] {0}, new double[6]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 classes");
    }
}
