package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.LinearRegression;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.worker.ComputeEmulation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A worker that dies mid-run: the others go on within a session timeout, and the worker comes back. */
@Tag("integration")
class MembershipIT extends ClusterTestBase {

    private static final long SESSION_TIMEOUT_MS = 2_000;
    private static final long CRASH_AT_CLOCK = 20;
    private static final String CRASHING_WORKER = "worker-002";
    /**
     * Every worker computes at least 600 us a sample (about 25 ms a clock), so that the others are still
     * training when the dead one comes back however fast a round through Kafka is.
     */
    private static final ComputeEmulation PACED = new ComputeEmulation(1.0, 0, 600);

    @ParameterizedTest
    @EnumSource(
            value = SyncMode.class,
            names = {"BSP", "SSP"})
    void shouldGoOnWithoutAWorkerThatDiesAndTakeItBackWhenItReturns(final SyncMode mode, @TempDir final Path stateDir)
            throws InterruptedException {
        // given
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("membership-" + mode, 3, 4, 8))
                .setSyncMode(mode)
                .setStaleness(mode == SyncMode.SSP ? 2 : 0)
                .setSessionTimeoutMs(SESSION_TIMEOUT_MS)
                .build();
        final List<IterationTelemetry> seen = new CopyOnWriteArrayList<>();
        final AtomicBoolean crashed = new AtomicBoolean();
        final RunListener crashOnce = new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                seen.add(telemetry);
                if (CRASHING_WORKER.equals(telemetry.getWorker())
                        && telemetry.getClock() == CRASH_AT_CLOCK
                        && crashed.compareAndSet(false, true)) {
                    throw new IllegalStateException("simulated crash of " + CRASHING_WORKER);
                }
            }
        };

        // when: the worker dies without leaving, and is restarted a second after its session timeout
        final TrainingRun.Result result = new TrainingRun(
                        kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .restartingFailedWorkersAfter(Duration.ofMillis(SESSION_TIMEOUT_MS + 1_000))
                .withEmulation(Map.of(0, PACED, 1, PACED, 2, PACED))
                .run(spec, problem.data(), crashOnce);

        // then: training finished and converged
        assertThat(crashed).isTrue();
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(Evaluation.rmse(
                        new LinearRegression(16),
                        result.finalParameters(),
                        problem.data().train()))
                .isLessThan(problem.optimalRmse() * 1.05);
        // the others never waited much longer than one session timeout for the dead worker
        final double longestWait = seen.stream()
                .filter(t -> !CRASHING_WORKER.equals(t.getWorker()))
                .mapToDouble(IterationTelemetry::getWaitMs)
                .max()
                .orElseThrow();
        assertThat(longestWait).isLessThan(SESSION_TIMEOUT_MS + 2_500);
        // the restarted worker rejoined at the current model and trained to the end
        final List<IterationTelemetry> restarted = seen.stream()
                .filter(t -> CRASHING_WORKER.equals(t.getWorker()))
                .filter(t -> t.getClock() > CRASH_AT_CLOCK)
                .toList();
        assertThat(restarted).isNotEmpty();
        final List<Long> afterRestart =
                restarted.stream().map(IterationTelemetry::getClock).toList();
        // and the others went on while it was down: iterations finished between its crash and its return
        final Instant crash = seen.stream()
                .filter(t -> CRASHING_WORKER.equals(t.getWorker()) && t.getClock() == CRASH_AT_CLOCK)
                .findFirst()
                .orElseThrow()
                .getTimestamp();
        final Instant back = restarted.get(0).getTimestamp();
        assertThat(seen.stream()
                        .filter(t -> !CRASHING_WORKER.equals(t.getWorker()))
                        .filter(t -> t.getTimestamp().isAfter(crash)
                                && t.getTimestamp().isBefore(back))
                        .count())
                .isGreaterThan(5);
        assertThat(afterRestart.get(afterRestart.size() - 1))
                .isEqualTo(result.job().iterations() - 1);
        assertThat(afterRestart.get(0)).isGreaterThan(CRASH_AT_CLOCK + 1);
    }
}
