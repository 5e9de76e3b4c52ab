package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregator restarted while the schema registry is down: it waits for the registry instead of exiting, starts
 * once the registry is back at the same URL, and the BSP model of the job it serves is bit-identical to the run
 * without an outage. The workers keep the ids they learned before the outage and train on.
 */
@Tag("integration")
class RegistryOutageIT extends ClusterTestBase {

    private static final long OUTAGE_AT_CLOCK = 20;
    private static final long OUTAGE_MS = 4_000;

    @Test
    void shouldStartAndFinishTheJobBitForBitWhenRestartedWhileTheRegistryIsDown(@TempDir final Path dir)
            throws Exception {
        // given: a registry of its own at a fixed URL, so that it can come back there
        final int port = freePort();
        SchemaRegistryServer outageRegistry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", port);
        final String url = outageRegistry.url();
        final LinearProblem problem = LinearJobs.problem();
        // the workers wait through the outage without being taken for dead
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("outage-linear", 2, 2, 3))
                .setSessionTimeoutMs(60_000)
                .build();
        final CountDownLatch reachedOutage = new CountDownLatch(1);
        final RunListener watch = new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                if (telemetry.getClock() >= OUTAGE_AT_CLOCK) {
                    reachedOutage.countDown();
                }
            }
        };
        final AggregatorRunner first = AggregatorRunner.start(
                props(url, dir.resolve("first")), TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults());
        final CompletableFuture<TrainingRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new TrainingRun(
                                kafka.bootstrapServers(), url, TopicCatalog.DEFAULT_PREFIX, dir.resolve("unused"))
                        .withAggregators(0)
                        .run(spec, problem.data(), watch);
            } catch (final InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(reachedOutage.await(120, TimeUnit.SECONDS)).isTrue();

        // when: the registry goes down, the aggregator is restarted (an empty state directory: it restores) and the
        // registry comes back only later
        outageRegistry.close();
        first.close();
        final CompletableFuture<AggregatorRunner> restarted =
                CompletableFuture.supplyAsync(() -> AggregatorRunner.start(
                        props(url, dir.resolve("second")), TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults()));
        Thread.sleep(OUTAGE_MS);
        final boolean waitedForTheRegistry = !restarted.isDone();
        outageRegistry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", port);
        final AggregatorRunner second = restarted.get(120, TimeUnit.SECONDS);
        final TrainingRun.Result result;
        try {
            result = run.get(180, TimeUnit.SECONDS);
        } finally {
            second.close();
            outageRegistry.close();
        }

        // then
        assertThat(waitedForTheRegistry)
                .as("the restarted aggregator waited for the registry")
                .isTrue();
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    private static Properties props(final String registryUrl, final Path stateDir) {
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
