package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.topology.ShardKeys;
import java.time.Instant;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** A tombstone on {@code jobs} deletes the orchestrator's state and meters of the job. */
class JobDeletionTest {

    @Test
    void shouldDropTheJobStateAndMetersWhenTheJobIsTombstoned() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(OrchestratorSettings.defaults())) {
            // given: a job with a straggler, planned for
            bed.submit(4);
            for (int i = 0; i < 5; i++) {
                bed.round(1000, 1000, 1000 / 3.0, 1000);
            }
            assertThat(bed.issued).isNotEmpty();
            assertThat(bed.metrics.hasMeters(OrchestratorTestBed.JOB)).isTrue();

            // when
            bed.jobs.pipeInput(OrchestratorTestBed.JOB, null);
            bed.driver.advanceWallClockTime(PlanningProcessor.SWEEP_INTERVAL);

            // then
            assertThat(states(bed).get(OrchestratorTestBed.JOB)).isNull();
            assertThat(bed.metrics.hasMeters(OrchestratorTestBed.JOB)).isFalse();
        }
    }

    @Test
    void shouldKeepTheStateOfAJobThatNeverHadASpec() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(OrchestratorSettings.defaults())) {
            // given: telemetry of a job never submitted on jobs
            bed.telemetry.pipeInput(ShardKeys.worker("unsubmitted", "worker-000"), telemetry("unsubmitted"));

            // when
            bed.driver.advanceWallClockTime(PlanningProcessor.SWEEP_INTERVAL);

            // then
            assertThat(states(bed).get("unsubmitted")).isNotNull();
        }
    }

    @Test
    void shouldKeepAtMostTheCapOfJobsWithoutASpecAndStillPlanSubmittedOnes() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(OrchestratorSettings.defaults())) {
            // given: telemetry naming more made-up jobs than the cap
            for (int i = 0; i <= PlanningProcessor.MAX_JOBS_WITHOUT_SPEC + 20; i++) {
                bed.telemetry.pipeInput(ShardKeys.worker("made-up-" + i, "worker-000"), telemetry("made-up-" + i));
            }

            // when: a submitted job with a straggler reports
            bed.submit(4);
            for (int i = 0; i < 5; i++) {
                bed.round(1000, 1000, 1000 / 3.0, 1000);
            }

            // then
            int madeUp = 0;
            try (var all = states(bed).all()) {
                while (all.hasNext()) {
                    madeUp += all.next().key.startsWith("made-up-") ? 1 : 0;
                }
            }
            assertThat(madeUp).isEqualTo(PlanningProcessor.MAX_JOBS_WITHOUT_SPEC);
            assertThat(states(bed).get(OrchestratorTestBed.JOB)).isNotNull();
            assertThat(bed.issued).isNotEmpty();
        }
    }

    private static IterationTelemetry telemetry(final String job) {
        return IterationTelemetry.newBuilder()
                .setJob(job)
                .setWorker("worker-000")
                .setClock(0)
                .setSamples(100)
                .setComputeMs(10)
                .setWaitMs(0)
                .setThreads(1)
                .setBatchShare(1.0)
                .setCommandEpoch(-1)
                .setLoss(1.0)
                .setTimestamp(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }

    private static KeyValueStore<String, JobState> states(final OrchestratorTestBed bed) {
        return bed.driver.getKeyValueStore(OrchestratorTopology.JOB_STATE_STORE);
    }
}
