package io.paramhub.topology.orchestrator;

import static io.paramhub.topology.orchestrator.OrchestratorTestBed.worker;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.ResourceCommand;
import org.junit.jupiter.api.Test;

class WorkerGateTest {

    private static final OrchestratorSettings DEFAULTS = OrchestratorSettings.defaults();

    @Test
    void shouldDeadLetterTelemetryOfWorkersNotInTheJobAndPlanWithoutThemWhenTheJobHasASpec() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given a job of 3 workers, one of them a straggler
            bed.submit(3);

            // when each clock also brings a fast worker-003 and a worker named outside the id form
            for (int c = 0; c < DEFAULTS.window(); c++) {
                bed.send(worker(3), 400, 100, 1, 0.25, -1);
                bed.send("mallory", 400, 100, 1, 0.25, -1);
                bed.round(1000, 1000, 1000 / 3.0);
            }

            // then the plan names the job's 3 workers only, and every forged record is dead-lettered
            assertThat(bed.issued)
                    .extracting(ResourceCommand::getWorker)
                    .containsExactlyInAnyOrder(worker(0), worker(1), worker(2));
            assertThat(bed.newest().get(worker(0)).getSpeeds()).doesNotContainKeys(worker(3), "mallory");
            assertThat(bed.state().workers()).doesNotContainKeys(worker(3), "mallory");
            assertThat(bed.deadLetters.readValuesToList())
                    .hasSize(2 * DEFAULTS.window())
                    .allSatisfy(letter -> {
                        assertThat(letter.getReason()).isEqualTo(DeadLetterReason.UNKNOWN_WORKER);
                        assertThat(letter.getSourceTopic())
                                .isEqualTo(bed.topics.telemetry().name());
                    })
                    .extracting(letter -> letter.getError())
                    .contains(
                            "telemetry of job job-o from 'worker-003', not one of its 3 workers "
                                    + "(worker-000 to worker-002)",
                            "telemetry of job job-o from 'mallory', not a worker id (worker-NNN)");
            assertThat(bed.metrics.refusedTelemetry()).isEqualTo(2L * DEFAULTS.window());
        }
    }

    @Test
    void shouldKeepAWellFormedWorkerAndRefuseAnyOtherNameWhenTheJobHasNoSpecYet() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given no spec of the job

            // when
            bed.send(worker(7), 400, 100, 1, 1.0, -1);
            bed.send("worker-7", 400, 100, 1, 1.0, -1);

            // then
            assertThat(bed.state().workers()).containsOnlyKeys(worker(7));
            assertThat(bed.deadLetters.readValuesToList())
                    .singleElement()
                    .satisfies(letter -> assertThat(letter.getError()).contains("'worker-7', not a worker id"));
        }
    }
}
