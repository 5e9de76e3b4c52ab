package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.LinearProblem;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregator restarted while the schema registry is down: it waits for the registry instead of exiting, starts
 * once the registry is back at the same URL, and the BSP model of the job it serves is bit-identical to the run
 * without an outage. The workers keep the ids they learned before the outage and train on. An orchestrator that
 * only looks schemas up, started during an outage, does not fail either: its global jobs store waits for the
 * registry.
 */
@Tag("integration")
class RegistryOutageIT extends ClusterTestBase {

    private static final long OUTAGE_AT_CLOCK = 20;
    private static final long OUTAGE_MS = 4_000;
    /** The orchestrator test's topics. */
    private static final String PREFIX = "outage.";

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

    @Test
    void shouldKeepAnOrchestratorThatLooksSchemasUpAliveThroughAnOutageAtItsStart(@TempDir final Path dir)
            throws Exception {
        // given: a job on the jobs topic, written while the registry was up (a first orchestrator made the topics
        // and registered its schemas); topics of their own, without the other test's telemetry, which a look-up-only
        // orchestrator could not write to its repartition topic (a subject only a first record registers)
        final int port = freePort();
        SchemaRegistryServer outageRegistry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", port);
        final String url = outageRegistry.url();
        final JobSpec spec = LinearJobs.job("outage-orchestrated", 2, 2, 3);
        OrchestratorRunner.start(
                        props(url, dir.resolve("first")),
                        PREFIX,
                        TopicSetup.defaults(),
                        OrchestratorSettings.defaults())
                .close();
        JobSubmitter.submit(
                TopicCatalog.create(PREFIX, SerdeFactory.forRegistry(url)).jobs(), client(), spec);

        // when: the registry is down as an orchestrator that only looks schemas up starts on an empty state
        // directory (its global jobs store reads the topic again, and its start waits for that), and back later
        outageRegistry.close();
        final Properties lookUpOnly = props(url, dir.resolve("second"));
        lookUpOnly.put("auto.register.schemas", "false");
        final CompletableFuture<OrchestratorRunner> starting = CompletableFuture.supplyAsync(() ->
                OrchestratorRunner.start(lookUpOnly, PREFIX, TopicSetup.defaults(), OrchestratorSettings.defaults()));
        Thread.sleep(OUTAGE_MS);
        final boolean waitedForTheRegistry = !starting.isDone();
        outageRegistry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", port);
        try (OrchestratorRunner second = starting.get(90, TimeUnit.SECONDS)) {

            // then: it waited, and once the registry is back it runs with the job in its jobs store
            assertThat(waitedForTheRegistry)
                    .as("the orchestrator's start waited for the registry")
                    .isTrue();
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(second.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
                assertThat(jobSpecs(second.streams()).get(spec.getJob())).isEqualTo(spec);
            });
        } finally {
            outageRegistry.close();
        }
    }

    private static ReadOnlyKeyValueStore<String, JobSpec> jobSpecs(final KafkaStreams streams) {
        return streams.store(StoreQueryParameters.fromNameAndType(
                OrchestratorTopology.JOB_SPEC_STORE, QueryableStoreTypes.keyValueStore()));
    }

    private static Properties props(final String registryUrl, final Path stateDir) {
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }

    private static Properties client() {
        final Properties client = new Properties();
        client.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return client;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
