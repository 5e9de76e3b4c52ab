package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.LinearProblem;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.worker.ComputeEmulation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SSP(s) lets a worker run ahead of the slowest live worker, but never by more than s clocks. */
@Tag("integration")
class SspBoundIT extends ClusterTestBase {

    private static final int STALENESS = 2;
    private static final long SLOW_SAMPLE_COST_MICROS = 1_500;

    @Test
    void shouldNeverLetAWorkerRunMoreThanStalenessClocksAheadOfTheSlowest(@TempDir final Path stateDir)
            throws InterruptedException {
        // given: worker-000 computes each iteration for ~60 ms before it publishes its gradient (about 43
        // samples at 1.5 ms each), the others as fast as they can, so without the bound they would run away
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("ssp-bound", 3, 4, 3))
                .setSyncMode(SyncMode.SSP)
                .setStaleness(STALENESS)
                .build();
        final LeadTracker leads = new LeadTracker(3);

        // when
        new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .withEmulation(Map.of(0, new ComputeEmulation(1.0, 0, SLOW_SAMPLE_COST_MICROS)))
                .run(spec, problem.data(), leads);

        // then: a worker tells its listener of a clock after its flush returns, by which time the aggregator may
        // have applied that clock and a fast worker finished one more: the tracker can see the slowest worker
        // one clock late, so it may report STALENESS + 1 (one suite run of 2026-11-24 did); without the bound
        // the fast workers run dozens of clocks ahead
        assertThat(leads.maxLead()).isLessThanOrEqualTo(STALENESS + 1);
        assertThat(leads.maxLead()).as("the fast workers did run ahead").isGreaterThanOrEqualTo(1);
    }

    /**
     * From telemetry: when a worker finishes clock c, how far c is ahead of the clock the slowest
     * other worker is working on (its last finished clock + 1).
     */
    private static final class LeadTracker implements RunListener {
        private final int workers;
        private final Map<String, Long> finished = new HashMap<>();
        private long maxLead = Long.MIN_VALUE;

        LeadTracker(final int workers) {
            this.workers = workers;
        }

        @Override
        public void onIteration(final IterationTelemetry telemetry) {
            synchronized (this) {
                finished.put(telemetry.getWorker(), telemetry.getClock());
                if (finished.size() == workers) {
                    final long slowestWorkingOn = finished.values().stream()
                                    .mapToLong(Long::longValue)
                                    .min()
                                    .orElseThrow()
                            + 1;
                    maxLead = Math.max(maxLead, telemetry.getClock() - slowestWorkingOn);
                }
            }
        }

        synchronized long maxLead() {
            return maxLead;
        }
    }
}
