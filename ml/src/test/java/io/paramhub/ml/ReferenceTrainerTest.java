package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests that sharded BSP training matches single-process training and converges. */
class ReferenceTrainerTest {

    private static double relativeDifference(final float[] actual, final float[] expected) {
        double difference = 0;
        double norm = 0;
        for (int i = 0; i < expected.length; i++) {
            difference += ((double) actual[i] - expected[i]) * ((double) actual[i] - expected[i]);
            norm += (double) expected[i] * expected[i];
        }
        return Math.sqrt(difference / norm);
    }

    @Test
    void shouldMatchSingleProcessTrainingWhenShardedAmongWorkers() {
        // given
        final LinearProblem problem = LinearProblem.generate(4096, 16, 0.1, 7);
        final Dataset train = problem.data().train();
        final Model model = new LinearRegression(16);
        final BatchPlan plan = new BatchPlan(train.size(), 128, 11);

        // when
        final float[] sharded = ReferenceTrainer.trainSharded(
                model, train, plan, Optimizers.sgd(0.05, 0.9), ShardLayout.of(17, 4), 3, 300, 5);
        final float[] unsharded =
                ReferenceTrainer.trainUnsharded(model, train, plan, Optimizers.sgd(0.05, 0.9), 300, 5);

        // then
        assertThat(relativeDifference(sharded, unsharded)).isLessThan(1e-4);
        assertThat(relativeDifference(sharded, model.initialParameters(5))).isGreaterThan(0.5);
    }

    @Test
    void shouldConvergeToTheSameModelWhenPipelinedOrShippingBfloat16() {
        // given
        final LinearProblem problem = LinearProblem.generate(4096, 16, 0.1, 7);
        final Dataset train = problem.data().train();
        final Model model = new LinearRegression(16);
        final BatchPlan plan = new BatchPlan(train.size(), 128, 11);

        // when: momentum 0.5, since a stale update with 0.9 oscillates (as SSP and ASP, the demo gives pipelined
        // BSP 0.5)
        final float[] plain = train(model, train, plan, BspVariant.PLAIN);
        final float[] pipelined = train(model, train, plan, new BspVariant(GradientPrecision.FLOAT32, 1));
        final float[] bfloat16 = train(model, train, plan, new BspVariant(GradientPrecision.BFLOAT16, 0));

        // then: other bits, the same optimum
        assertThat(pipelined).isNotEqualTo(plain);
        assertThat(bfloat16).isNotEqualTo(plain);
        assertThat(relativeDifference(pipelined, plain)).isLessThan(1e-2);
        assertThat(relativeDifference(bfloat16, plain)).isLessThan(1e-2);
        assertThat(Evaluation.rmse(model, pipelined, train)).isLessThanOrEqualTo(problem.optimalRmse() * 1.01);
        assertThat(Evaluation.rmse(model, bfloat16, train)).isLessThanOrEqualTo(problem.optimalRmse() * 1.01);
    }

    private static float[] train(
            final Model model, final Dataset train, final BatchPlan plan, final BspVariant variant) {
        return ReferenceTrainer.trainSharded(
                model,
                train,
                plan,
                Optimizers.sgd(0.05, 0.5),
                LearningRateSchedule.constant(),
                ShardLayout.of(17, 4),
                3,
                300,
                5,
                variant,
                Runnable::run,
                (clock, params, loss) -> {});
    }

    @Test
    void shouldMatchSingleProcessTrainingWhenSomeWorkersGetNoSamplesWithAdam() {
        // given: 5 workers share batches of 3, so two of them idle every iteration
        final LinearProblem problem = LinearProblem.generate(300, 4, 0.1, 2);
        final Dataset train = problem.data().train();
        final Model model = new LinearRegression(4);
        final BatchPlan plan = new BatchPlan(train.size(), 3, 1);

        // when
        final float[] sharded = ReferenceTrainer.trainSharded(
                model, train, plan, Optimizers.adam(0.01, 0.9, 0.999, 1e-8), ShardLayout.of(5, 2), 5, 250, 3);
        final float[] unsharded =
                ReferenceTrainer.trainUnsharded(model, train, plan, Optimizers.adam(0.01, 0.9, 0.999, 1e-8), 250, 3);

        // then
        assertThat(relativeDifference(sharded, unsharded)).isLessThan(1e-4);
    }

    @Test
    void shouldMatchSingleProcessTrainingWhenANetworkWithDropoutIsShardedWithACosineSchedule() {
        // given: a small CNN with dropout on random images; each worker draws the masks of its own samples
        final Random random = new Random(31);
        final Dataset train = NetworkGradientCheck.randomImages(random, 96, 144, 4);
        final Model model = Models.create("cnn:3,2,3,8,1,dropout=0.5", 144, 4);
        final BatchPlan plan = new BatchPlan(train.size(), 12, 13);
        final LearningRateSchedule schedule = LearningRateSchedule.cosine(24);

        // when
        final float[] sharded = ReferenceTrainer.trainSharded(
                model,
                train,
                plan,
                Optimizers.adam(0.01, 0.9, 0.999, 1e-8),
                schedule,
                ShardLayout.of(model.parameterCount(), 3),
                4,
                24,
                5);
        final float[] unsharded = ReferenceTrainer.trainUnsharded(
                model, train, plan, Optimizers.adam(0.01, 0.9, 0.999, 1e-8), schedule, 24, 5);

        // then
        assertThat(relativeDifference(sharded, unsharded)).isLessThan(1e-4);
        assertThat(relativeDifference(sharded, model.initialParameters(5))).isGreaterThan(0.01);
    }

    @Test
    void shouldReachOptimalRmseWhenTrainingLinearRegressionSharded() {
        // given
        final LinearProblem problem = LinearProblem.generate(4096, 16, 0.1, 7);
        final Dataset train = problem.data().train();
        final Model model = new LinearRegression(16);
        final BatchPlan plan = new BatchPlan(train.size(), 128, 11);

        // when: about 9 epochs; a larger rate stalls at its noise floor about 1.5% above the optimum
        final float[] params = ReferenceTrainer.trainSharded(
                model, train, plan, Optimizers.sgd(0.01, 0.9), ShardLayout.of(17, 4), 3, 300, 5);

        // then
        assertThat(Evaluation.rmse(model, params, train)).isLessThan(1.01 * problem.optimalRmse());
    }
}
