package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.ml.Models;
import org.junit.jupiter.api.Test;

class TrainingRecipeTest {

    @Test
    void shouldTrainNetworksWithAdamAndACosineAndConvexModelsWithSgd() {
        // given / when
        final TrainingRecipe mlp = TrainingRecipe.forModel(Models.create("mlp:64", 784, 10));
        final TrainingRecipe cnn = TrainingRecipe.forModel(Models.create("cnn", 784, 10));
        final TrainingRecipe softmax = TrainingRecipe.forModel(Models.create("softmax", 784, 10));

        // then
        assertThat(mlp.optimizer()).isEqualTo(OptimizerKind.ADAM);
        assertThat(mlp.schedule()).isEqualTo(LearningRateScheduleKind.COSINE);
        assertThat(cnn.optimizer()).isEqualTo(OptimizerKind.ADAM);
        assertThat(cnn.schedule()).isEqualTo(LearningRateScheduleKind.COSINE);
        assertThat(softmax).isEqualTo(new TrainingRecipe(OptimizerKind.SGD, 0.05, LearningRateScheduleKind.CONSTANT));
    }

    @Test
    void shouldUseTheOptimizersPlainRateWhenAnotherOptimizerIsChosen() {
        // given
        final TrainingRecipe mlp = TrainingRecipe.forModel(Models.create("mlp", 784, 10));

        // when / then
        assertThat(mlp.learningRate(OptimizerKind.ADAM)).isEqualTo(mlp.learningRate());
        assertThat(mlp.learningRate(OptimizerKind.SGD)).isEqualTo(TrainingRecipe.SGD_LEARNING_RATE);
    }

    @Test
    void shouldDecayOverEveryClockOfTheJobWhenCosine() {
        // given: 60,000 samples in batches of 128 are 468 clocks an epoch
        final JobSpec.Builder spec = JobSpec.newBuilder();

        // when
        TrainingRecipe.withSchedule(spec, LearningRateScheduleKind.COSINE, 10, 60_000, 128);
        final long cosine = spec.getDecayClocks();
        TrainingRecipe.withSchedule(spec, LearningRateScheduleKind.CONSTANT, 10, 60_000, 128);

        // then
        assertThat(cosine).isEqualTo(4680);
        assertThat(spec.getDecayClocks()).isZero();
        assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.CONSTANT);
    }
}
