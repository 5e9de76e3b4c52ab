package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.IterationTelemetry;
import java.time.Instant;

/** Records for dashboard tests. */
final class JobBoardTestRecords {

    private JobBoardTestRecords() {
    }

    /** One iteration of worker-000 of {@code job} at clock 0, sent at {@code timestampMs}. */
    static IterationTelemetry telemetry(final String job, final long timestampMs) {
        return IterationTelemetry.newBuilder().setJob(job).setWorker("worker-000").setClock(0).setSamples(10)
            .setComputeMs(1.0).setWaitMs(1.0).setThreads(1).setBatchShare(1.0).setCommandEpoch(-1).setLoss(5.0)
            .setTimestamp(Instant.ofEpochMilli(timestampMs)).build();
    }
}
