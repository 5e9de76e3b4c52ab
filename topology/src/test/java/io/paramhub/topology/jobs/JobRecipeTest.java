package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import org.junit.jupiter.api.Test;

class JobRecipeTest {

    /** Fashion-MNIST's shape: 60,000 training images of 784 pixels, 10 classes; 468 batches of 128 a pass. */
    private static final JobData IMAGES = new JobData("fashion-mnist", 784, 10, 60_000, false);

    @Test
    void shouldTrainTheMlpWithAdamAndACosineOverEveryClockWhenNothingElseIsChosen() {
        // given
        final JobSettings settings = JobSettings.none().job("j").model("mlp").workers(4);

        // when
        final JobSpec spec = JobRecipe.spec(settings, IMAGES);

        // then: the model's recipe, 3 epochs of 468 clocks, BSP, and shards raised so that none exceeds 256 KiB
        assertThat(spec.getOptimizer()).isEqualTo(OptimizerKind.ADAM);
        assertThat(spec.getLearningRate()).isEqualTo(0.002);
        assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.COSINE);
        assertThat(spec.getDecayClocks()).isEqualTo(3L * 468);
        assertThat(spec.getSyncMode()).isEqualTo(SyncMode.BSP);
        assertThat(spec.getGlobalBatch()).isEqualTo(JobRecipe.DEFAULT_BATCH);
        assertThat(spec.getSeed()).isEqualTo(JobRecipe.DEFAULT_SEED);
        assertThat((long) spec.getParameters() * Float.BYTES / spec.getShards()).isLessThanOrEqualTo(256 * 1024);
    }

    @Test
    void shouldDeriveTheScheduleFromTheChosenEpochsAndBatch() {
        // given: the epochs and batch a user gives beside a job file
        final JobSettings settings =
                JobSettings.none().job("j").model("mlp").workers(4).epochs(10).batch(256);

        // when
        final JobSpec spec = JobRecipe.spec(settings, IMAGES);

        // then: the cosine decays over the chosen job, not the default one
        assertThat(spec.getDecayClocks()).isEqualTo(10L * (60_000 / 256));
        assertThat(spec.getEpochs()).isEqualTo(10);
    }

    @Test
    void shouldUseSgdWithMomentumAtAConstantRateForSoftmaxAndLessMomentumWhenAsynchronous() {
        // given
        final JobSettings bsp = JobSettings.none().job("j").model("softmax").workers(4);
        final JobSettings ssp =
                JobSettings.none().job("j").model("softmax").workers(4).sync(SyncMode.SSP);

        // when
        final JobSpec synchronous = JobRecipe.spec(bsp, IMAGES);
        final JobSpec stale = JobRecipe.spec(ssp, IMAGES);

        // then
        assertThat(synchronous.getOptimizer()).isEqualTo(OptimizerKind.SGD);
        assertThat(synchronous.getLearningRate()).isEqualTo(TrainingRecipe.SGD_LEARNING_RATE);
        assertThat(synchronous.getDecayClocks()).isZero();
        assertThat(synchronous.getMomentum()).isEqualTo(JobRecipe.BSP_MOMENTUM);
        assertThat(synchronous.getStaleness()).isZero();
        assertThat(stale.getMomentum()).isEqualTo(JobRecipe.ASYNC_MOMENTUM);
        assertThat(stale.getStaleness()).isEqualTo(JobRecipe.DEFAULT_STALENESS);
    }

    @Test
    void shouldTakeWhatTheUserChoseOverTheRecipe() {
        // given
        final JobSettings settings = JobSettings.none()
                .job("j")
                .model("mlp")
                .workers(4)
                .optimizer(OptimizerKind.SGD)
                .schedule(LearningRateScheduleKind.CONSTANT)
                .momentum(0.8)
                .shards(9);

        // when
        final JobSpec spec = JobRecipe.spec(settings, IMAGES);

        // then: SGD takes SGD's plain rate, not the recipe's Adam rate
        assertThat(spec.getOptimizer()).isEqualTo(OptimizerKind.SGD);
        assertThat(spec.getLearningRate()).isEqualTo(TrainingRecipe.SGD_LEARNING_RATE);
        assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.CONSTANT);
        assertThat(spec.getMomentum()).isEqualTo(0.8);
        assertThat(spec.getShards()).isEqualTo(9);
    }

    @Test
    void shouldRaiseTheShardsSoThatNoShardHoldsTwoStagesParameters() {
        // given
        final JobSettings settings =
                JobSettings.none().job("j").model("mlp:64,32").workers(4).stages(2);

        // when
        final JobSpec spec = JobRecipe.spec(settings, IMAGES);

        // then
        assertThat(spec.getStages()).isEqualTo(2);
        assertThat(spec.getShards()).isGreaterThanOrEqualTo(2);
        assertThat(spec.getMicroBatches()).isEqualTo(JobRecipe.DEFAULT_MICRO_BATCHES);
    }

    @Test
    void shouldNameTheOptionWhenSettingsDoNotGoTogether() {
        // given
        final JobSettings softmaxInStages =
                JobSettings.none().job("j").model("softmax").workers(4).stages(2);
        final JobSettings noWorkers = JobSettings.none().job("j").model("softmax");
        final JobSettings unknownModel =
                JobSettings.none().job("j").model("transformer").workers(2);
        final JobData endless = JobData.ofTopic("topic:events", 784, 10, -1);
        final JobSettings cosineForever =
                JobSettings.none().job("j").model("softmax").workers(2).schedule(LearningRateScheduleKind.COSINE);
        final JobSettings twoPasses =
                JobSettings.none().job("j").model("softmax").workers(2).epochs(2);

        // when / then
        assertThatThrownBy(() -> JobRecipe.spec(softmaxInStages, IMAGES))
                .hasMessageContaining("--stages 2: model softmax cannot be cut into pipeline stages");
        assertThatThrownBy(() -> JobRecipe.spec(noWorkers, IMAGES)).hasMessage("--workers is required");
        assertThatThrownBy(() -> JobRecipe.spec(unknownModel, IMAGES))
                .hasMessageStartingWith("--model: unknown model kind 'transformer'");
        assertThatThrownBy(() -> JobRecipe.spec(cosineForever, endless))
                .hasMessageStartingWith("--lr-schedule cosine decays the rate to 0");
        assertThatThrownBy(() -> JobRecipe.spec(twoPasses, endless))
                .hasMessageStartingWith("--epochs: a job from a topic makes one pass");
        assertThatThrownBy(() -> JobRecipe.spec(
                        JobSettings.none().job("j").model("softmax").workers(2).shards(0), IMAGES))
                .hasMessage("--shards must be >= 1, not 0");
    }

    @Test
    void shouldDecayOverTheTopicsExamplesWhenTheJobHasAnEnd() {
        // given: 10,000 examples in batches of 500
        final JobSettings settings = JobSettings.none()
                .job("j")
                .model("softmax")
                .workers(2)
                .batch(500)
                .schedule(LearningRateScheduleKind.COSINE);

        // when
        final JobSpec spec = JobRecipe.spec(settings, JobData.ofTopic("topic:events", 784, 10, 10_000));

        // then
        assertThat(spec.getDecayClocks()).isEqualTo(20);
        assertThat(spec.getEpochs()).isEqualTo(1);
    }
}
