package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.ModelShard;
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
