package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Tests the generated linear problem and its closed-form optimum. */
class LinearProblemTest {

    private static float[] toFloat(final double[] values) {
        final float[] result = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            result[i] = (float) values[i];
        }
        return result;
    }

    private static double[] meanGradient(final Model model, final float[] params, final Dataset data) {
        final int[] all = new BatchPlan(data.size(), data.size(), 0).batch(0);
        final double[] gradient = new double[model.parameterCount()];
        model.accumulateGradient(params, data, all, gradient);
        for (int i = 0; i < gradient.length; i++) {
            gradient[i] /= data.size();
        }
        return gradient;
    }

    @Test
    void shouldHaveZeroGradientWhenAtTheOptimum() {
        // given
        final LinearProblem problem = LinearProblem.generate(4096, 16, 0.1, 7);
        final Model model = new LinearRegression(16);

        // when
        final double[] atOptimum =
                meanGradient(model, toFloat(problem.optimum()), problem.data().train());
        final double[] atStart =
                meanGradient(model, model.initialParameters(1), problem.data().train());

        // then
        for (int i = 0; i < atOptimum.length; i++) {
            assertThat(atOptimum[i]).as("gradient %d at optimum", i).isCloseTo(0, within(1e-5));
        }
        assertThat(Math.abs(atStart[0]))
                .as("gradient at the start is far from 0")
                .isGreaterThan(0.01);
    }

    @Test
    void shouldReachNoiseLevelWhenAtTheOptimum() {
        // given
        final LinearProblem problem = LinearProblem.generate(4096, 16, 0.1, 7);

        // when
        final double rmse = problem.optimalRmse();
        final double[] optimum = problem.optimum();
        final double[] truth = problem.trueParameters();

        // then
        assertThat(rmse).isCloseTo(0.1, within(0.005));
        assertThat(Evaluation.rmse(
                        new LinearRegression(16),
                        toFloat(optimum),
                        problem.data().train()))
                .isCloseTo(rmse, within(1e-5));
        assertThat(optimum).hasSize(17).containsExactly(truth, within(0.01));
    }

    @Test
    void shouldDrawSameDataWhenSeedIsTheSame() {
        // when
        final TrainTest first = LinearProblem.generate(100, 3, 0.5, 1).data();
        final TrainTest second = LinearProblem.generate(100, 3, 0.5, 1).data();

        // then
        assertThat(first.train().x()).containsExactly(second.train().x());
        assertThat(first.test().y()).containsExactly(second.test().y());
        assertThat(first.test().size()).isEqualTo(25);
        assertThat(first.train().isClassification()).isFalse();
        assertThat(first.train().y())
                .isNotEqualTo(
                        LinearProblem.generate(100, 3, 0.5, 2).data().train().y());
    }
}
