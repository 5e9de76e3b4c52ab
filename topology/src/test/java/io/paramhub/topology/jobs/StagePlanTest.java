package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Models;
import io.paramhub.ml.ParameterRange;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.ShardLayout;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tests how a hybrid job maps workers and shards to pipeline stages. */
class StagePlanTest {

    private static JobSpec job(final String kind, final int stages, final int workers, final int shards) {
        return JobSpecs.forModel(Models.create(kind, 784, 10), shards)
                .setJob("stages")
                .setDataset("fashion-mnist")
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.ADAM)
                .setLearningRate(0.001)
                .setGlobalBatch(128)
                .setExpectedWorkers(workers)
                .setEpochs(1)
                .setSeed(1)
                .setStages(stages)
                .setCreatedAt(Instant.now())
                .build();
    }

    @Test
    void shouldGiveEachShardToTheOneStageWhoseParametersItHolds() {
        // given the default cnn, 2 replicas x 2 stages, in the 10 shards the record budget needs
        final PipelineModel cnn = (PipelineModel) Models.create("cnn", 784, 10);
        assertThat(StagePlan.minimumShards(cnn, 2)).isEqualTo(10);
        final JobSpec spec = job("cnn", 2, 4, 10);

        // when
        final StagePlan plan = StagePlan.of(spec);
        final ShardLayout layout = plan.layout();

        // then every value of every shard lies in its stage's ranges, no shard over 65,536 values
        assertThat(JobSpecs.problems(spec)).isEmpty();
        assertThat(JobSpecs.layout(spec)).isEqualTo(layout);
        for (int shard = 0; shard < layout.shards(); shard++) {
            final int stage = plan.stageOfShard(shard);
            final int first = layout.first(shard);
            final int last = first + layout.length(shard) - 1;
            assertThat(plan.stage(stage).parameters())
                    .as("shard %d", shard)
                    .anyMatch(range -> range.contains(first) && range.contains(last));
            assertThat(layout.length(shard)).isLessThanOrEqualTo(65_536);
        }
        assertThat(plan.shardsOf(0).size() + plan.shardsOf(1).size()).isEqualTo(10);
        assertThat(ParameterRange.total(plan.stage(0).parameters())).isEqualTo(210_173);
        // worker w: replica w / 2, stage w % 2
        assertThat(plan.replicas()).isEqualTo(2);
        assertThat(plan.stageOf(3)).isEqualTo(1);
        assertThat(plan.replicaOf(3)).isEqualTo(1);
        assertThat(plan.workerIndex(1, 0)).isEqualTo(2);
        assertThat(plan.contributesTo("worker-002", plan.shardsOf(0).get(0))).isTrue();
        assertThat(plan.contributesTo("worker-003", plan.shardsOf(0).get(0))).isFalse();
        assertThat(plan.contributesTo("worker-x", plan.shardsOf(0).get(0))).isFalse();
    }

    @Test
    void shouldSayWhatKeepsAJobFromRunningInStages() {
        assertThat(JobSpecs.problems(job("softmax", 2, 4, 2)))
                .anyMatch(problem -> problem.contains("cannot be cut into pipeline stages"));
        assertThat(JobSpecs.problems(job("mlp:32", 3, 3, 4))).anyMatch(problem -> problem.contains("1 to 2 stages"));
        assertThat(JobSpecs.problems(job("mlp:32", 2, 3, 4)))
                .anyMatch(problem -> problem.contains("must be a multiple of stages"));
        assertThat(JobSpecs.problems(JobSpec.newBuilder(job("mlp:32", 2, 4, 4))
                        .setSyncMode(SyncMode.SSP)
                        .build()))
                .anyMatch(problem -> problem.contains("needs plain BSP"));
        assertThat(JobSpecs.problems(
                        JobSpec.newBuilder(job("cnn", 2, 4, 3)).setShards(3).build()))
                .anyMatch(problem -> problem.contains("at least 4 shards"));
        assertThat(JobSpecs.problems(job("mlp:32", 2, 4, 4))).isEmpty();
        assertThatThrownBy(() -> StagePlan.of(job("softmax", 2, 4, 2))).hasMessageContaining("pipeline stages");
    }

    @Test
    void shouldPlanADataParallelJobAsOneStageOfOneReplicaPerWorker() {
        // given a softmax job of 3 workers and 4 shards, without stages
        final JobSpec spec = job("softmax", 1, 3, 4);

        // when
        final StagePlan plan = StagePlan.of(spec);

        // then every worker computes every shard, on the plain layout
        assertThat(plan.hybrid()).isFalse();
        assertThat(StagePlan.hybrid(spec)).isFalse();
        assertThat(plan.stages()).isEqualTo(1);
        assertThat(plan.replicas()).isEqualTo(3);
        assertThat(plan.layout()).isEqualTo(ShardLayout.of(spec.getParameters(), spec.getShards()));
        assertThat(plan.stageOfShard(3)).isZero();
        assertThat(plan.contributesTo(WorkerIds.of(2), 3)).isTrue();
        assertThat(plan.contributorsTo(0, Set.of(WorkerIds.of(0), WorkerIds.of(1))))
                .containsExactlyInAnyOrder(WorkerIds.of(0), WorkerIds.of(1));
        assertThat(StagePlan.stageOf(spec, WorkerIds.of(2))).isZero();
    }
}
