package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import java.nio.file.Path;
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
    void shouldSumOnTheHostOnlyBspJobsOfFloat32GradientsOneStageAndFileData() {
        // given
        final JobSpec bsp = validLinear().setSyncMode(SyncMode.BSP).build();

        // when / then: each other setting sends each worker's own gradients
        assertThat(JobSpecs.summableOnHost(bsp)).isTrue();
        assertThat(JobSpecs.summableOnHost(
                        JobSpec.newBuilder(bsp).setSyncMode(SyncMode.SSP).build()))
                .isFalse();
        assertThat(JobSpecs.summableOnHost(JobSpec.newBuilder(bsp)
                        .setGradientEncoding(GradientEncoding.BFLOAT16)
                        .build()))
                .isFalse();
        assertThat(JobSpecs.summableOnHost(JobSpec.newBuilder(bsp).setStages(2).build()))
                .isFalse();
        assertThat(JobSpecs.summableOnHost(
                        JobSpec.newBuilder(bsp).setDataset("topic:examples").build()))
                .isFalse();
    }

    @Test
    void shouldRefuseFloat64AsAJobsGradientEncoding() {
        // given: FLOAT64 is how a host's sum travels, never how a job's workers pack their gradients
        final JobSpec spec =
                validLinear().setGradientEncoding(GradientEncoding.FLOAT64).build();

        // when / then
        assertThat(JobSpecs.problems(spec)).singleElement().asString().contains("not FLOAT64");
        assertThatThrownBy(() -> JobSpecs.gradientEncoding("float64"))
                .hasMessage("gradient encoding must be float32 or bfloat16, not float64");
        assertThat(JobSpecs.gradientEncoding("BFloat16")).isEqualTo(GradientEncoding.BFLOAT16);
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

    @Test
    void shouldRefuseFewerShardsThanTheRecordBudgetNeedsWhenAShardWouldOutgrowIt() {
        // given: 1,333,770 parameters, which need 21 shards of at most 65,536
        final JobSpec.Builder spec = validLinear();
        final JobSpec.Builder mlp = JobSpec.newBuilder(JobSpecs.forModel(Models.create("mlp:1024,512", 784, 10), 21)
                .setJob("j")
                .setDataset("fashion-mnist")
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setGlobalBatch(8)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(1)
                .setCreatedAt(Instant.EPOCH)
                .build());

        // when
        final List<String> twenty = JobSpecs.problems(mlp.setShards(20).build());
        final List<String> one = JobSpecs.problems(mlp.setShards(1).build());

        // then
        assertThat(twenty)
                .containsExactly("shards must be at least 21: 20 put up to 66689 parameters in one shard, over the "
                        + "65536 whose records fit a topic's max.message.bytes");
        assertThat(one).singleElement().asString().startsWith("shards must be at least 21: 1 put up to 1333770");
        assertThat(JobSpecs.problems(mlp.setShards(21).build())).isEmpty();
        assertThat(JobSpecs.problems(spec.build())).isEmpty();
    }

    private static JobSpec.Builder validLinear() {
        return JobSpecs.forModel(Models.create("linear", 3, 1), 2)
                .setJob("j")
                .setDataset("linear:n=64,d=3")
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setGlobalBatch(8)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(1)
                .setCreatedAt(Instant.EPOCH);
    }

    @Test
    void shouldNameEachFieldBeyondItsUpperBound() {
        // given
        final JobSpec spec = validLinear()
                .setExpectedWorkers(JobSpecs.MAX_WORKERS + 1)
                .setGlobalBatch(JobSpecs.MAX_GLOBAL_BATCH + 1)
                .setEpochs(JobSpecs.MAX_EPOCHS + 1)
                .setStaleness(JobSpecs.MAX_STALENESS + 1)
                .build();

        // when
        final List<String> problems = JobSpecs.problems(spec);

        // then
        assertThat(problems)
                .anySatisfy(problem -> assertThat(problem).startsWith("expectedWorkers must be between 1 and 1000"))
                .anySatisfy(problem -> assertThat(problem).startsWith("globalBatch must be between 1 and 1048576"))
                .anySatisfy(problem -> assertThat(problem).startsWith("epochs must be between 1 and 10000"))
                .anySatisfy(problem -> assertThat(problem).startsWith("staleness must be between 0 and 10000"));
    }

    @Test
    void shouldRefuseAModelBeyondTheParameterBoundWithoutBuildingIt() {
        // given: 2^21 inputs, beyond MAX_INPUTS, and a parameter count beyond MAX_PARAMETERS
        final JobSpec spec = validLinear()
                .setInputs(1 << 21)
                .setParameters((1 << 21) + 1)
                .setShards(4097)
                .build();

        // when
        final List<String> problems = JobSpecs.problems(spec);

        // then
        assertThat(problems)
                .anySatisfy(problem -> assertThat(problem).startsWith("inputs must be between 1 and 1048576"))
                .anySatisfy(problem -> assertThat(problem).contains("shards must be between 1", "at most 4096"));
        assertThat(String.join(";", problems)).doesNotContain("but model");
    }

    @Test
    void shouldRefuseADatasetDirectoryThatTraversesOrLeavesTheAllowedRoots() {
        // given
        final List<Path> roots = List.of(Path.of("/data/sets"));

        // when / then
        assertThat(DatasetChecks.problems("fashion-mnist:/data/sets/fashion", roots))
                .isEmpty();
        assertThat(DatasetChecks.problems("fashion-mnist", roots)).isEmpty();
        assertThat(DatasetChecks.problems("fashion-mnist:/data/sets/../../etc", roots))
                .singleElement()
                .asString()
                .contains("must not contain . or .. segments");
        assertThat(DatasetChecks.problems("fashion-mnist:/etc/passwd", roots))
                .singleElement()
                .asString()
                .contains("outside the allowed roots");
        assertThat(DatasetChecks.problems("fashion-mnist:data/sets", roots))
                .singleElement()
                .asString()
                .contains("absolute");
        assertThat(DatasetChecks.problems("imagenet:/data/sets", roots))
                .singleElement()
                .asString()
                .contains("unknown data spec");
        assertThat(DatasetChecks.problems("linear:n=100000000,d=16", roots))
                .singleElement()
                .asString()
                .contains("more than the 67108864 allowed");
    }

    @Test
    void shouldNameTheDatasetProblemWhenAJobReadsOutsideTheRoots() {
        // given
        final JobSpec spec = validLinear().setDataset("fashion-mnist:/etc").build();

        // when
        final List<String> problems = JobSpecs.problems(spec, List.of(Path.of("/data/sets")));

        // then
        assertThat(problems).singleElement().asString().contains("'/etc' is outside the allowed roots");
        assertThat(JobSpecs.problems(validLinear().build())).isEmpty();
    }

    @Test
    void shouldKnowTheWorkersOfAJobByTheirIds() {
        // given
        final JobSpec spec = validLinear().setExpectedWorkers(4).build();

        // when / then
        assertThat(WorkerIds.of(3)).isEqualTo("worker-003");
        assertThat(WorkerIds.of(1234)).isEqualTo("worker-1234");
        assertThat(WorkerIds.belongsTo(spec, "worker-003")).isTrue();
        assertThat(WorkerIds.belongsTo(spec, "worker-004")).isFalse();
        assertThat(WorkerIds.belongsTo(spec, "worker-099")).isFalse();
        assertThat(WorkerIds.belongsTo(spec, "worker-3")).isFalse();
        assertThat(WorkerIds.belongsTo(spec, "worker--01")).isFalse();
        assertThat(WorkerIds.belongsTo(spec, "intruder")).isFalse();
    }
}
