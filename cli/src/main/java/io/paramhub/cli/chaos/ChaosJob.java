package io.paramhub.cli.chaos;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.BspVariant;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.Models;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.StagePlan;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/**
 * One job a chaos run trains, sized to outlast its faults, with how its worker processes run: a BSP job (linear
 * regression, two shards; its model computed here without Kafka is the reference the run's must equal bit for bit),
 * an SSP job (the same problem, staleness 2, one of its two workers slowed down so that the bound is used) and a
 * staged job (an MLP on Fashion-MNIST cut into two pipeline stages, one replica: two stage workers).
 *
 * @param spec              the job as submitted to {@code jobs}
 * @param kind              which of the three it is
 * @param sampleCostMicros  emulated compute per example in each of its workers
 * @param slowdowns         each worker's {@code --slowdown}, by index
 */
record ChaosJob(JobSpec spec, Kind kind, long sampleCostMicros, List<Double> slowdowns) {

    /** The three kinds of job a run trains at once. */
    enum Kind {
        BSP,
        SSP,
        STAGED
    }

    static final String BSP_NAME = "chaos-bsp";

    static final String SSP_NAME = "chaos-ssp";

    static final String STAGED_NAME = "chaos-staged";

    /** 4096 examples, batch 128: 32 clocks an epoch (the BSP and SSP jobs). */
    static final String LINEAR = "linear:n=4096,d=16,noise=0.1,seed=7";

    static final int BATCH = 128;

    static final int CLOCKS_PER_EPOCH = 4096 / BATCH;

    /**
     * The staged job's data: Fashion-MNIST's 60,000 training images, in batches sized so that an epoch is about the
     * clocks a run budgets (an even number of examples, at least {@value #STAGED_MIN_BATCH}).
     */
    static final String STAGED_DATA = DataSources.FASHION_MNIST;

    static final int STAGED_TRAIN_SIZE = 60_000;

    static final int STAGED_MIN_BATCH = 32;

    /** The smallest MLP that can be cut into two stages: one hidden layer of 8 units. */
    static final String STAGED_MODEL = "mlp:8";

    /** Clocks before the first fault, and clocks budgeted per fault by default (a broker's restart lets jobs run on). */
    static final int WARMUP_CLOCKS = 64;

    static final int CLOCKS_PER_FAULT = 40;

    /** The SSP job's staleness s: a worker may start clock c once every live worker has finished c - s - 1. */
    static final int SSP_STALENESS = 2;

    /** How much slower the SSP job's second worker computes, so that the first runs ahead up to the bound. */
    static final double SSP_SLOWDOWN = 1.5;

    ChaosJob {
        slowdowns = List.copyOf(slowdowns);
    }

    String name() {
        return spec.getJob();
    }

    int workers() {
        return spec.getExpectedWorkers();
    }

    /** The name of its worker {@code index}'s process, e.g. {@code chaos-ssp/worker-1}. */
    String workerName(final int index) {
        return name() + "/worker-" + index;
    }

    /** Its clocks: the last model version of the BSP and staged jobs; the SSP job's last clock plus one. */
    long clocks() {
        final int perEpoch = kind == Kind.STAGED ? STAGED_TRAIN_SIZE / spec.getGlobalBatch() : CLOCKS_PER_EPOCH;
        return (long) perEpoch * spec.getEpochs();
    }

    /** Whether its model versions are one a clock, so that the reference computes the final one ({@link #reference}). */
    boolean bitIdentical() {
        return kind != Kind.SSP;
    }

    /** The clocks a run of {@code faults} faults budgets, {@code clocksPerFault} each after the warm-up. */
    static int budget(final int faults, final int clocksPerFault) {
        return WARMUP_CLOCKS + clocksPerFault * faults;
    }

    /**
     * The three jobs of a run of {@code faults} faults: the BSP job with session timeout {@code bspSessionMs}, the
     * SSP and staged jobs with {@code otherSessionMs}; {@code sampleCostMicros} paces the BSP and SSP jobs' clocks.
     */
    static List<ChaosJob> standard(
            final int faults,
            final int clocksPerFault,
            final long bspSessionMs,
            final long otherSessionMs,
            final long sampleCostMicros) {
        final int clocks = budget(faults, clocksPerFault);
        return List.of(
                bsp(clocks, bspSessionMs, sampleCostMicros),
                ssp(clocks, otherSessionMs, sampleCostMicros),
                staged(clocks, otherSessionMs, sampleCostMicros));
    }

    /** The BSP job, two workers, at least {@code clocks} clocks (whole epochs of 32). */
    static ChaosJob bsp(final int clocks, final long sessionTimeoutMs, final long sampleCostMicros) {
        final JobSpec spec = linear(BSP_NAME, clocks, sessionTimeoutMs)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .build();
        return new ChaosJob(spec, Kind.BSP, sampleCostMicros, Collections.nCopies(2, 1.0));
    }

    /** The SSP job: the BSP job's problem under SSP(2), its second worker {@value #SSP_SLOWDOWN} times slower. */
    static ChaosJob ssp(final int clocks, final long sessionTimeoutMs, final long sampleCostMicros) {
        final JobSpec spec = linear(SSP_NAME, clocks, sessionTimeoutMs)
                .setSyncMode(SyncMode.SSP)
                .setStaleness(SSP_STALENESS)
                .build();
        return new ChaosJob(spec, Kind.SSP, sampleCostMicros, List.of(1.0, SSP_SLOWDOWN));
    }

    /**
     * The staged job: {@value #STAGED_MODEL} on Fashion-MNIST, two stages of one replica (worker 0 stage 0, worker 1
     * stage 1), two micro-batches; at least {@code clocks} clocks, in whole epochs of about that many. Its workers
     * take the BSP workers' emulated cost a clock ({@code sampleCostMicros} times their 64 examples), spread over
     * the staged batch.
     */
    static ChaosJob staged(final int clocks, final long sessionTimeoutMs, final long sampleCostMicros) {
        final int batch = Math.max(STAGED_MIN_BATCH, STAGED_TRAIN_SIZE / clocks / 2 * 2);
        final int perEpoch = STAGED_TRAIN_SIZE / batch;
        final PipelineModel model = (PipelineModel) Models.create(STAGED_MODEL, 784, 10);
        final JobSpec spec = JobSpecs.forModel(model, Math.max(2, StagePlan.minimumShards(model, 2)))
                .setJob(STAGED_NAME)
                .setDataset(STAGED_DATA)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.05)
                .setMomentum(0.9)
                .setGlobalBatch(batch)
                .setExpectedWorkers(2)
                .setStages(2)
                .setMicroBatches(2)
                .setEpochs((clocks + perEpoch - 1) / perEpoch)
                .setSeed(5)
                .setSessionTimeoutMs(sessionTimeoutMs)
                .setCreatedAt(Instant.now())
                .build();
        return new ChaosJob(spec, Kind.STAGED, sampleCostMicros * (BATCH / 2) / batch, Collections.nCopies(2, 1.0));
    }

    private static JobSpec.Builder linear(final String name, final int clocks, final long sessionTimeoutMs) {
        return JobSpec.newBuilder()
                .setJob(name)
                .setModel("linear")
                .setDataset(LINEAR)
                .setInputs(16)
                .setOutputs(1)
                .setParameters(17)
                .setShards(2)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.01)
                .setMomentum(0.9)
                .setGlobalBatch(BATCH)
                .setExpectedWorkers(2)
                .setEpochs((clocks + CLOCKS_PER_EPOCH - 1) / CLOCKS_PER_EPOCH)
                .setSeed(3)
                .setSessionTimeoutMs(sessionTimeoutMs)
                .setCreatedAt(Instant.now());
    }

    /**
     * The final parameters of a fault-free run of the BSP or staged job, computed here as a cluster computes them:
     * {@link ReferenceTrainer#trainSharded} for the BSP job, {@link ReferenceTrainer#trainHybrid} for the staged
     * one.
     */
    float[] reference() {
        final Dataset train = DataSources.load(spec.getDataset()).train();
        final BatchPlan plan = new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
        final long iterations = (long) plan.iterationsPerEpoch() * spec.getEpochs();
        return switch (kind) {
            case BSP ->
                ReferenceTrainer.trainSharded(
                        JobSpecs.model(spec),
                        train,
                        plan,
                        JobSpecs.optimizer(spec),
                        JobSpecs.schedule(spec),
                        JobSpecs.layout(spec),
                        spec.getExpectedWorkers(),
                        iterations,
                        spec.getSeed(),
                        JobSpecs.bspVariant(spec),
                        Runnable::run,
                        (clock, params, loss) -> {});
            case STAGED ->
                ReferenceTrainer.trainHybrid(
                        (PipelineModel) JobSpecs.model(spec),
                        train,
                        plan,
                        JobSpecs.optimizer(spec),
                        JobSpecs.schedule(spec),
                        JobSpecs.layout(spec),
                        spec.getExpectedWorkers() / spec.getStages(),
                        spec.getStages(),
                        spec.getMicroBatches(),
                        iterations,
                        spec.getSeed(),
                        BspVariant.PLAIN,
                        Runnable::run,
                        (clock, params, loss) -> {});
            case SSP -> throw new IllegalStateException("an SSP run has no bit-identical reference");
        };
    }
}
