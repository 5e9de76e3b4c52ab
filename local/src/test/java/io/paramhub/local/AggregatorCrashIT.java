package io.paramhub.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.aggregator.AggregatorApp;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.ml.LinearProblem;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across a crash: the aggregator runs in its own JVM, is killed with SIGKILL mid-run
 * and restarted on an empty state directory (so it restores from changelogs); the BSP model at the
 * end is bit-identical to the run without a crash. The outage is longer than the job's session
 * timeout, so this also checks that no worker is taken for dead while the aggregator catches up.
 */
@Tag("integration")
class AggregatorCrashIT extends ClusterTestBase {

    private static final long KILL_AT_CLOCK = 80;
    private static final long SESSION_TIMEOUT_MS = 3_000;


    @Test
    void shouldProduceTheSameModelBitForBitWhenTheAggregatorIsKilledMidRun(@TempDir final Path dir)
        throws Exception {
        // given
        final LinearProblem problem = LinearJobs.problem();
        // a session timeout well under the outage (the dead member's 6 s consumer session, a JVM start,
        // a restore), so the restarted aggregator reads gradients stamped after every worker's last
        // heartbeat it knows of: it must wait for the heartbeats, not declare the workers dead
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("crash-linear", 3, 4, 6))
            .setSessionTimeoutMs(SESSION_TIMEOUT_MS).build();
        final CountDownLatch reachedKillClock = new CountDownLatch(1);
        final RunListener watch = new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                if (telemetry.getClock() >= KILL_AT_CLOCK) {
                    reachedKillClock.countDown();
                }
            }
        };
        Process aggregator = startAggregator(dir.resolve("state-1"), Path.of("target", "crash-it-aggregator-1.log"));

        // when
        final CompletableFuture<TrainingRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX,
                    dir.resolve("unused")).withAggregators(0).run(spec, problem.data(), watch);
            } catch (final InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(reachedKillClock.await(120, TimeUnit.SECONDS)).as("training reached clock " + KILL_AT_CLOCK)
            .isTrue();
        aggregator.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        aggregator = startAggregator(dir.resolve("state-2"), Path.of("target", "crash-it-aggregator-2.log"));
        final TrainingRun.Result result;
        try {
            result = run.get(180, TimeUnit.SECONDS);
        } finally {
            aggregator.destroy();
            aggregator.waitFor(30, TimeUnit.SECONDS);
        }

        // then
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    /** The aggregator app in a JVM of its own, so that it can be killed like a real process. */
    private static Process startAggregator(final Path stateDir, final Path log) throws IOException {
        final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(List.of(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
            AggregatorApp.class.getName(),
            "--bootstrap-servers", kafka.bootstrapServers(),
            "--registry-url", registry.url(),
            "--state-dir", stateDir.toString(),
            "--http-port", "0",
            "-Dsession.timeout.ms=6000"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    }
}
