package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests linear regression's loss, gradient and prediction. */
class LinearRegressionTest {

    @Test
    void shouldMatchFiniteDifferencesWhenDifferentiatingOnRandomProblem() {
        // given
        final Random random = new Random(3);
        final Dataset data = new Dataset(
                "random", 4, GradientCheck.gaussian(random, 6 * 4, 1), GradientCheck.gaussian(random, 6, 2), 0);
        final Model model = new LinearRegression(4);
        final float[] params = GradientCheck.gaussian(random, model.parameterCount(), 0.5);

        // when / then
        GradientCheck.assertGradientMatchesFiniteDifferences(model, params, data, new int[] {0, 2, 3, 5, 2});
    }

    @Test
    void shouldComputeHandCheckedLossAndGradientWhenOneSample() {
        // given: w = (1, 2), b = 0.5, x = (3, -1), y = 2 -> prediction 1.5, residual -0.5
        final Dataset data = new Dataset("one", 2, new float[] {3, -1}, new float[] {2}, 0);
        final Model model = new LinearRegression(2);
        final double[] gradient = new double[3];

        // when
        final double loss = model.accumulateGradient(new float[] {1, 2, 0.5f}, data, new int[] {0}, gradient);

        // then
        assertThat(loss).isEqualTo(0.125);
        assertThat(gradient).containsExactly(-1.5, 0.5, -0.5);
        assertThat(model.predict(new float[] {1, 2, 0.5f}, data, 0)).isEqualTo(1.5f);
    }

    @Test
    void shouldAddToGradientSumWhenCalledTwice() {
        // given
        final Dataset data = new Dataset("one", 2, new float[] {3, -1}, new float[] {2}, 0);
        final Model model = new LinearRegression(2);
        final double[] gradient = {10, 20, 30};

        // when
        model.accumulateGradient(new float[] {1, 2, 0.5f}, data, new int[] {0}, gradient);
        model.accumulateGradient(new float[] {1, 2, 0.5f}, data, new int[] {0}, gradient);

        // then
        assertThat(gradient).containsExactly(new double[] {7, 21, 29}, within(1e-12));
    }

    @Test
    void shouldDrawSameSmallParametersWhenSameSeed() {
        // given
        final Model model = new LinearRegression(50);

        // when
        final float[] first = model.initialParameters(9);
        final float[] second = model.initialParameters(9);

        // then
        assertThat(first).hasSize(51).containsExactly(second);
        assertThat(first).isNotEqualTo(model.initialParameters(10));
        for (final float value : first) {
            assertThat(Math.abs(value)).isLessThan(0.06f);
        }
    }

    @Test
    void shouldRejectParametersWhenLengthIsWrong() {
        // given
        final Dataset data = new Dataset("one", 2, new float[] {3, -1}, new float[] {2}, 0);

        // when / then
        assertThatThrownBy(() ->
                        new LinearRegression(2).accumulateGradient(new float[2], data, new int[] {0}, new double[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 parameters");
    }
}
