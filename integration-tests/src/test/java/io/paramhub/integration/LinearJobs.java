package io.paramhub.integration;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.LinearRegression;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;

/** The linear-regression job the integration tests train, and its BSP run computed without Kafka. */
final class LinearJobs {

    static final String DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";

    private LinearJobs() {}

    static LinearProblem problem() {
        return DataSources.linearProblem(DATASET);
    }

    /** Linear regression on 16 inputs (17 parameters), BSP, SGD lr 0.01 with momentum 0.9, batch 128. */
    static JobSpec job(final String name, final int workers, final int shards, final int epochs) {
        return JobSpec.newBuilder()
                .setJob(name)
                .setModel("linear")
                .setDataset(DATASET)
                .setInputs(16)
                .setOutputs(1)
                .setParameters(17)
                .setShards(shards)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.01)
                .setMomentum(0.9)
                .setGlobalBatch(128)
                .setExpectedWorkers(workers)
                .setEpochs(epochs)
                .setSeed(3)
                .setCreatedAt(Instant.now())
                .build();
    }

    /**
     * The final parameters of {@code spec}'s BSP run, computed in this process without Kafka, gradients
     * shipped in the spec's encoding and pipelined as the spec says.
     */
    static float[] bspReference(final JobSpec spec, final LinearProblem problem) {
        final BatchPlan plan = new BatchPlan(problem.data().train().size(), spec.getGlobalBatch(), spec.getSeed());
        return ReferenceTrainer.trainSharded(
                new LinearRegression(16),
                problem.data().train(),
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
