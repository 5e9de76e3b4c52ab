package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobSpecsTest {

    @Test
    void shouldRaiseTheShardsWhenTheModelOutgrowsTheRecordBudget() {
        // given: 1,333,770 parameters, 5.1 MiB of float32
        final Model model = Models.create("mlp:1024,512", 784, 10);

        // when
        final JobSpec.Builder spec = JobSpecs.forModel(model, 4);

        // then: ceil(5,335,080 B / 256 KiB) shards, the model's own shape
        assertThat(spec.getShards()).isEqualTo(21);
        assertThat(spec.getParameters()).isEqualTo(model.parameterCount());
        assertThat(spec.getModel()).isEqualTo("mlp:1024,512");
        assertThat(spec.getInputs()).isEqualTo(784);
        assertThat(spec.getOutputs()).isEqualTo(10);
    }

    @Test
    void shouldKeepTheRequestedShardsWhenTheModelFits() {
        // given
        final Model model = Models.create("linear", 16, 1);

        // when
        final JobSpec.Builder spec = JobSpecs.forModel(model, 4);

        // then
        assertThat(spec.getShards()).isEqualTo(4);
        assertThat(spec.getParameters()).isEqualTo(17);
    }

    @Test
    void shouldNameTheMissingClocksWhenACosineScheduleHasNone() {
        // given
        final JobSpec.Builder spec = JobSpecs.forModel(Models.create("linear", 3, 1), 2)
                .setJob("j")
                .setDataset("linear")
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.ADAM)
                .setLearningRate(0.001)
                .setGlobalBatch(8)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(1)
                .setCreatedAt(Instant.EPOCH);

        // when
        final List<String> without = JobSpecs.problems(spec.setLearningRateSchedule(LearningRateScheduleKind.COSINE)
                .setDecayClocks(0)
                .build());
        final JobSpec with = spec.setDecayClocks(10).build();

        // then
        assertThat(without).singleElement().asString().contains("decayClocks");
        assertThat(JobSpecs.problems(with)).isEmpty();
        assertThat(JobSpecs.schedule(with).factor(5)).isCloseTo(0.5, within(1e-12));
        assertThat(JobSpecs.schedule(spec.setLearningRateSchedule(LearningRateScheduleKind.CONSTANT)
                                .build())
                        .factor(5))
                .isEqualTo(1.0);
    }
}
