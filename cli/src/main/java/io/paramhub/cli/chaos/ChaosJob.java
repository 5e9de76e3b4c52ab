package io.paramhub.cli.chaos;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;

/**
 * The BSP job a chaos run trains (linear regression on a synthetic data set, two shards) sized to outlast its
 * faults, and its model computed in this process without Kafka: the reference the run's model must equal bit for
 * bit.
 */
final class ChaosJob {

    static final String NAME = "chaos-bsp";

    /** 4096 examples, batch 128: 32 clocks an epoch. */
    static final String DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";

    static final int BATCH = 128;

    static final int CLOCKS_PER_EPOCH = 4096 / BATCH;

    /** Clocks before the first fault, and clocks budgeted per fault (a broker's restart lets the job run on). */
    static final int WARMUP_CLOCKS = 64;

    static final int CLOCKS_PER_FAULT = 40;

    private ChaosJob() {}

    /** The job for {@code faults} faults and {@code workers} workers, each taken for dead after {@code sessionTimeoutMs}. */
    static JobSpec spec(final int faults, final int workers, final long sessionTimeoutMs) {
        final int clocks = WARMUP_CLOCKS + CLOCKS_PER_FAULT * faults;
        final int epochs = (clocks + CLOCKS_PER_EPOCH - 1) / CLOCKS_PER_EPOCH;
        return JobSpec.newBuilder()
                .setJob(NAME)
                .setModel("linear")
                .setDataset(DATASET)
                .setInputs(16)
                .setOutputs(1)
                .setParameters(17)
                .setShards(2)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.01)
                .setMomentum(0.9)
                .setGlobalBatch(BATCH)
                .setExpectedWorkers(workers)
                .setEpochs(epochs)
                .setSeed(3)
                .setSessionTimeoutMs(sessionTimeoutMs)
                .setCreatedAt(Instant.now())
                .build();
    }

    /** The job's clocks: its last model version. */
    static long clocks(final JobSpec spec) {
        return (long) CLOCKS_PER_EPOCH * spec.getEpochs();
    }

    /** The final parameters of {@code spec}'s BSP run, computed here as a fault-free cluster computes them. */
    static float[] reference(final JobSpec spec) {
        final Dataset train = DataSources.load(spec.getDataset()).train();
        final BatchPlan plan = new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
        return ReferenceTrainer.trainSharded(
                JobSpecs.model(spec),
                train,
                plan,
                JobSpecs.optimizer(spec),
                JobSpecs.schedule(spec),
                JobSpecs.layout(spec),
                spec.getExpectedWorkers(),
                (long) plan.iterationsPerEpoch() * spec.getEpochs(),
                spec.getSeed(),
                JobSpecs.bspVariant(spec),
                Runnable::run,
                (clock, params, loss) -> {});
    }
}
