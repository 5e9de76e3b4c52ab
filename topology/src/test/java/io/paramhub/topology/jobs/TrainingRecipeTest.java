package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;

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
}
