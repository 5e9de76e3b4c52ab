package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Tests accuracy, RMSE and mean loss on hand-made data. */
class EvaluationTest {

    @Test
    void shouldCountCorrectPredictionsWhenScoringAccuracy() {
        // given: W = identity, b = 0 predicts the larger coordinate; the last label is wrong
        final Dataset data =
                new Dataset("points", 2, new float[] {2, 1, 0, 3, 5, 4, 1, 2}, new float[] {0, 1, 0, 0}, 2);
        final Model model = new SoftmaxRegression(2, 2);

        // when
        final double accuracy = Evaluation.accuracy(model, new float[] {1, 0, 0, 1, 0, 0}, data);

        // then
        assertThat(accuracy).isEqualTo(0.75);
    }

    @Test
    void shouldComputeRootMeanSquareWhenScoringRegression() {
        // given: prediction = x, errors 1 and -3
        final Dataset data = new Dataset("line", 1, new float[] {1, 2}, new float[] {0, 5}, 0);
        final Model model = new LinearRegression(1);
        final float[] params = {1, 0};

        // when
        final double rmse = Evaluation.rmse(model, params, data);
        final double meanLoss = Evaluation.meanLoss(model, params, data);

        // then
        assertThat(rmse).isCloseTo(Math.sqrt(5), within(1e-12));
        assertThat(meanLoss).isCloseTo(2.5, within(1e-12));
    }

    @Test
    void shouldRejectAccuracyWhenDataIsRegression() {
        // given
        final Dataset data = new Dataset("line", 1, new float[] {1}, new float[] {0}, 0);

        // when / then
        assertThatThrownBy(() -> Evaluation.accuracy(new LinearRegression(1), new float[2], data))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
