package io.paramhub.topology.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Models;
import io.paramhub.ml.PipelineModel;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class JobMemoryTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void shouldCountAdamsTwoSlotsAndEveryWorkersBufferedGradientWhenTheJobIsBsp() {
        // given 4 parameters (16 bytes), Adam, BSP over 4 workers
        final JobSpec spec = JobSpec.newBuilder(AggregatorTestBed.linearJob("adam", 4))
                .setOptimizer(OptimizerKind.ADAM)
                .build();

        // when
        final JobMemory memory = JobMemory.of(spec);

        // then
        assertThat(memory).isEqualTo(new JobMemory(16, 32, 4 * 16, 2 * 3 * 16 + 16, 0));
        assertThat(memory.total()).isEqualTo(16 + 32 + 64 + 112);
    }

    @Test
    void shouldCountMomentumsOneSlotAndNoBufferWhenTheJobAppliesOnArrival() {
        // given SGD with momentum, SSP(2)
        final JobSpec spec = JobSpec.newBuilder(AggregatorTestBed.linearJob("momentum", 4))
                .setMomentum(0.9)
                .setSyncMode(SyncMode.SSP)
                .setStaleness(2)
                .build();

        // when
        final JobMemory memory = JobMemory.of(spec);

        // then
        assertThat(memory).isEqualTo(new JobMemory(16, 16, 0, 2 * 2 * 16 + 16, 0));
    }

    @Test
    void shouldBufferAClockPerPipelineDepthWhenTheJobIsPipelinedBsp() {
        // given plain SGD, BSP pipelined 2 deep, 4 workers
        final JobSpec spec = JobSpec.newBuilder(AggregatorTestBed.linearJob("pipelined", 4))
                .setPipelineDepth(2)
                .build();

        // when / then
        assertThat(JobMemory.of(spec).bufferedGradients()).isEqualTo(4 * 3 * 16);
    }

    @Test
    void shouldCountTheActivationsAtEachStageBoundaryWhenTheJobIsStaged() {
        // given the default cnn cut into 2 stages, a global batch of 128
        final PipelineModel cnn = (PipelineModel) Models.create("cnn", 784, 10);
        final JobSpec spec = JobSpecs.forModel(cnn, 10)
                .setJob("staged")
                .setDataset("fashion-mnist")
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.ADAM)
                .setLearningRate(0.001)
                .setGlobalBatch(128)
                .setExpectedWorkers(4)
                .setEpochs(1)
                .setSeed(1)
                .setStages(2)
                .setCreatedAt(Instant.now())
                .build();

        // when
        final JobMemory memory = JobMemory.of(spec);

        // then activations and their gradients, of floats, for every sample of the batch
        assertThat(memory.activations())
                .isEqualTo(2L * cnn.stage(0, 2).outputWidth() * 128 * 4)
                .isPositive();
    }

    @Test
    void shouldGiveEveryFigureWhenTheJobIsOverTheBudget() {
        // given 1 MiB of parameters under Adam
        final JobSpec spec = JobSpec.newBuilder(AggregatorTestBed.linearJob("big", 1))
                .setOptimizer(OptimizerKind.ADAM)
                .setParameters(262_144)
                .build();
        final JobMemory memory = JobMemory.of(spec);

        // when
        final String refusal = memory.overBudget(spec, 4 * MIB);

        // then 1 MiB parameters, 2 MiB moments, 1 MiB buffered, 7 MiB in the stores
        assertThat(refusal)
                .isEqualTo("estimated memory 11.0 MiB > budget 4.0 MiB (paramhub.aggregator.job.memory.budget.bytes):"
                        + " parameters 1.0 MiB, optimizer state 2.0 MiB (ADAM, 2 slots), buffered gradients 1.0 MiB"
                        + " (BSP, 1 workers), snapshots 7.0 MiB, activations 0.0 MiB (1 stages)");
        assertThat(memory.overBudget(spec, 11 * MIB)).isNull();
    }

    @Test
    void shouldDefaultToHalfTheHeapAndRefuseABudgetThatIsNotAPositiveNumber() {
        assertThat(JobMemory.budget(Map.of(), 3_000 * MIB)).isEqualTo(1_500 * MIB);
        assertThat(JobMemory.budget(Map.of(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG, " 4096 "), MIB))
                .isEqualTo(4096);
        assertThatThrownBy(() -> JobMemory.budget(Map.of(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG, "0"), MIB))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG);
        assertThatThrownBy(() -> JobMemory.budget(Map.of(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG, "1g"), MIB))
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void shouldDeadLetterAJobOverTheBudgetAsInvalidWithItsFiguresAndStartTheNext() {
        // given an aggregator whose budget is 1 MiB a job
        final Properties settings = new Properties();
        settings.put(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG, String.valueOf(MIB));
        try (AggregatorTestBed bed = new AggregatorTestBed(settings)) {
            final JobSpec big = JobSpec.newBuilder(AggregatorTestBed.linearJob("big", 4))
                    .setOptimizer(OptimizerKind.ADAM)
                    .setInputs(65_535)
                    .setParameters(65_536)
                    .build();

            // when
            bed.submit(big);
            bed.submit(AggregatorTestBed.linearJob("small", 1));

            // then
            assertThat(bed.deadLetters.readValuesToList()).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_JOB);
                assertThat(letter.getError())
                        .startsWith("invalid job big: estimated memory")
                        .contains("> budget 1.0 MiB", "parameters 0.3 MiB", "(ADAM, 2 slots)");
            });
            assertThat(bed.model.readValuesToList())
                    .allSatisfy(shard -> assertThat(shard.getJob()).isEqualTo("small"))
                    .hasSize(2);
        }
    }
}
