package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Tests the mean training loss per epoch the demo prints. */
class LossTallyTest {

    private static IterationTelemetry telemetry(final String worker, final int stage, final double loss) {
        return IterationTelemetry.newBuilder()
                .setJob("job")
                .setWorker(worker)
                .setClock(0)
                .setSamples(64)
                .setComputeMs(1)
                .setWaitMs(0)
                .setThreads(1)
                .setBatchShare(0.5)
                .setLoss(loss)
                .setTimestamp(Instant.EPOCH)
                .setStage(stage)
                .build();
    }

    @Test
    void shouldAverageOverEveryWorkersSamples() {
        // given
        final LossTally tally = new LossTally(10);

        // when
        tally.add(telemetry("worker-000", 0, 64));
        tally.add(telemetry("worker-001", 0, 128));

        // then
        assertThat(tally.meanLoss(0)).isEqualTo(1.5);
    }

    @Test
    void shouldCountTheSamplesOfTheLastPipelineStageAloneWhichComputesTheLoss() {
        // given 1 replica of 2 stages: stage 0 computes the samples too, but reports no loss
        final LossTally tally = new LossTally(10, 2);

        // when
        tally.add(telemetry("worker-000", 0, 0));
        tally.add(telemetry("worker-001", 1, 96));

        // then
        assertThat(tally.meanLoss(0)).isEqualTo(1.5);
    }
}
