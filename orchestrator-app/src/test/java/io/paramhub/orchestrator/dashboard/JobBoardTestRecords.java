package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;

/** Records for dashboard tests. */
final class JobBoardTestRecords {

    private JobBoardTestRecords() {}

    /** One iteration of worker-000 of {@code job} at clock 0, sent at {@code timestampMs}. */
    static IterationTelemetry telemetry(final String job, final long timestampMs) {
        return IterationTelemetry.newBuilder()
                .setJob(job)
                .setWorker("worker-000")
                .setClock(0)
                .setSamples(10)
                .setComputeMs(1.0)
                .setWaitMs(1.0)
                .setThreads(1)
                .setBatchShare(1.0)
                .setCommandEpoch(-1)
                .setLoss(5.0)
                .setTimestamp(Instant.ofEpochMilli(timestampMs))
                .build();
    }

    /** A valid spec of {@code job}: linear regression on 3 inputs (4 parameters, 1 shard), 2 workers. */
    static JobSpec spec(final String job, final long createdAtMs) {
        return JobSpec.newBuilder()
                .setJob(job)
                .setModel("linear")
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setOutputs(1)
                .setParameters(4)
                .setShards(1)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setMomentum(0.0)
                .setGlobalBatch(128)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(7)
                .setCreatedAt(Instant.ofEpochMilli(createdAtMs))
                .build();
    }

    /** Version {@code version} of the only shard of {@code job}'s 4-parameter model, published at {@code timestampMs}. */
    static ModelShard model(final String job, final long version, final long timestampMs) {
        return ModelShard.newBuilder()
                .setJob(job)
                .setShard(0)
                .setShards(1)
                .setFirstParameter(0)
                .setVersion(version)
                .setMinClock(version)
                .setValues(FloatPacking.pack(new float[4]))
                .setUpdatedAt(Instant.ofEpochMilli(timestampMs))
                .build();
    }
}
