package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests that the in-process hybrid run (replicas of a pipeline of stages) is the data-parallel run. */
class HybridTrainingTest {

    private static float[] hybrid(
            final PipelineModel model,
            final Dataset train,
            final BatchPlan plan,
            final int replicas,
            final int stages,
            final int microBatches,
            final long clocks) {
        return ReferenceTrainer.trainHybrid(
                model,
                train,
                plan,
                Optimizers.sgd(0.05, 0.9),
                LearningRateSchedule.constant(),
                ShardLayout.of(model.parameterCount(), 3),
                replicas,
                stages,
                microBatches,
                clocks,
                11,
                BspVariant.PLAIN,
                Runnable::run,
                (clock, params, loss) -> {});
    }

    private static float[] dataParallel(
            final Model model, final Dataset train, final BatchPlan plan, final int workers, final long clocks) {
        return ReferenceTrainer.trainSharded(
                model,
                train,
                plan,
                Optimizers.sgd(0.05, 0.9),
                ShardLayout.of(model.parameterCount(), 3),
                workers,
                clocks,
                11);
    }

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
    void shouldEqualTheDataParallelRunBitForBitForAnMlp() {
        // given 2 replicas of 3 stages, 2 micro-batches of 32 samples per replica and clock, dropout on
        final Dataset train = NetworkGradientCheck.randomImages(new Random(1), 600, 36, 4);
        final PipelineModel model = (PipelineModel) Models.create("mlp:24,12,dropout=0.3", 36, 4);
        final BatchPlan plan = new BatchPlan(train.size(), 128, 7);

        // when
        final float[] hybrid = hybrid(model, train, plan, 2, 3, 2, 12);
        final float[] dataParallel = dataParallel(model, train, plan, 2, 12);

        // then
        assertThat(hybrid).containsExactly(dataParallel);
        assertThat(relativeDifference(hybrid, model.initialParameters(11))).isGreaterThan(0.01);
    }

    @Test
    void shouldEqualTheDataParallelRunToFloatRoundingForACnn() {
        // given 2 replicas of 2 stages (the hidden layer split between them), dropout and flips on
        final Dataset train = NetworkGradientCheck.randomImages(new Random(2), 300, 144, 5);
        final PipelineModel model = (PipelineModel) Models.create("cnn:3,4,8,16,1,dropout=0.5,flip", 144, 5);
        final BatchPlan plan = new BatchPlan(train.size(), 64, 7);

        // when
        final float[] hybrid = hybrid(model, train, plan, 2, 2, 2, 8);
        final float[] dataParallel = dataParallel(model, train, plan, 2, 8);

        // then
        assertThat(relativeDifference(hybrid, dataParallel)).isLessThan(1e-6);
        assertThat(relativeDifference(hybrid, model.initialParameters(11))).isGreaterThan(0.001);
    }

    @Test
    void shouldRefuseMoreStagesThanTheModelHasCuts() {
        final Dataset train = NetworkGradientCheck.randomImages(new Random(3), 64, 36, 4);
        final PipelineModel model = (PipelineModel) Models.create("mlp:24", 36, 4);
        final BatchPlan plan = new BatchPlan(train.size(), 32, 7);

        assertThatThrownBy(() -> hybrid(model, train, plan, 2, 3, 1, 1)).hasMessageContaining("1 to 2 stages");
        assertThatThrownBy(() -> hybrid(model, train, plan, 2, 2, 0, 1)).hasMessageContaining(">= 1 micro-batch");
    }
}
