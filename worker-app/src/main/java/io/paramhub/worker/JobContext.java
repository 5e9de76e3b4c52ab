package io.paramhub.worker;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.GradientRounding;
import io.paramhub.ml.Model;
import io.paramhub.ml.ShardLayout;
import io.paramhub.ml.TopicSpec;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.client.ModelBounds;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.topology.sync.SyncPolicy;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What a worker learned about its job, once, before its first clock: the spec, the stage plan (a
 * data-parallel job is 1 stage x N replicas), the stage it computes and the shards it reads and writes, the
 * training set, model, shard layout, batch plan, number of clocks, sync policy, gradient rounding, and the
 * arrays its clocks reuse. Reads and writes no topic.
 */
record JobContext(
        JobSpec spec,
        StagePlan plan,
        int stage,
        List<Integer> shards,
        Dataset train,
        Model model,
        ShardLayout layout,
        BatchPlan batches,
        long clocks,
        SyncPolicy sync,
        GradientRounding rounding,
        ClockBuffers buffers) {

    /**
     * The job {@code spec} as the worker of {@code workerIndex} runs it, on the data {@code dataLoader} gives; a
     * topic-mode job ({@link TopicSpec}) has no training set nor batch plan (its examples stream in) and runs until
     * its input is over.
     */
    static JobContext prepare(
            final JobSpec spec, final int workerIndex, final Function<JobSpec, TrainTest> dataLoader) {
        final boolean streamed = TopicSpec.isTopic(spec.getDataset());
        final Dataset train = streamed ? null : dataLoader.apply(spec).train();
        final BatchPlan batches = streamed ? null : new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
        final StagePlan plan = StagePlan.of(spec);
        final int stage = plan.stageOf(workerIndex);
        final ShardLayout layout = plan.layout();
        return new JobContext(
                spec,
                plan,
                stage,
                plan.shardsOf(stage),
                train,
                JobSpecs.model(spec),
                layout,
                batches,
                streamed ? Long.MAX_VALUE : (long) spec.getEpochs() * batches.iterationsPerEpoch(),
                SyncPolicy.of(spec),
                JobSpecs.gradientPrecision(spec).rounding(spec.getParameters()),
                new ClockBuffers(layout));
    }

    /** Whether the job's examples stream from a topic ({@link TopicSpec}): it has no training set loaded. */
    boolean streamed() {
        return train == null;
    }

    /**
     * A view of the shards this worker reads: pipelined BSP computes clock c on version c - d while versions
     * up to c may be in, so it keeps d + 1 versions. It refuses a record past the job's bounds ({@link ModelBounds}:
     * its clocks, workers and parameters) and hands it to {@code refused}.
     */
    ModelView newView(final BiConsumer<ModelShard, String> refused) {
        final ModelBounds bounds = new ModelBounds(
                spec.getShards(), streamed() ? -1 : clocks, spec.getExpectedWorkers(), spec.getParameters());
        return new ModelView(spec.getJob(), spec.getShards(), sync.pipelineDepth() + 1, shards)
                .bounded(bounds, refused);
    }

    /** The keys of the shards this worker reads, which pick its partitions of {@code model}; null for all. */
    List<String> shardKeys() {
        if (shards.size() == layout.shards()) {
            return null;
        }
        return shards.stream()
                .map(shard -> ShardKeys.shard(spec.getJob(), shard))
                .toList();
    }

    /**
     * Bytes of the model values this worker reads a version (its stage's shards): under BSP a worker waits
     * for whole versions, so its fetches wait for as much; SSP and ASP workers take what is there.
     */
    int versionBytes() {
        int values = 0;
        for (final int shard : shards) {
            values += layout.length(shard);
        }
        return values * Float.BYTES;
    }
}
