package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicReplication;
import io.paramhub.worker.ComputeEmulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BSP training on 3 brokers, topics and the Streams apps' internal topics replicated 3 times with
 * {@code min.insync.replicas} 2 (the offsets and transaction topics too): mid-run each broker is restarted in
 * turn, waiting for every replica to be back in sync before the next, then one broker is stopped for good.
 * Brokers 0 and 1 restart with a controlled shutdown (a rolling restart); broker 2 has none, so its restart is
 * a crash and its final stop is a kill the controller learns of only when its session times out; training goes
 * on on the other two. The model is bit-identical to the run computed without Kafka.
 */
@Tag("integration")
class BrokerLossIT {

    private static final int BROKERS = 3;
    private static final int KILLED = 2;
    /**
     * 192 clocks: the three restarts and the loss come at about clock 75 here (each restart waits for the
     * replicas to be in sync), so training goes on for some 115 clocks on two brokers, of which the test
     * awaits {@link #CLOCKS_BETWEEN_FAULTS} after the loss; 10 epochs spent 10 s more on that alone.
     */
    private static final int EPOCHS = 6;

    private static final long FIRST_FAULT_CLOCK = 20;
    /** Clocks trained between two faults, so that training runs on each broker set. */
    private static final long CLOCKS_BETWEEN_FAULTS = 10;
    /** Each worker's ~43 samples a clock cost at least 43 ms: the run lasts long enough for the faults. */
    private static final long SAMPLE_COST_MICROS = 1_000;

    private static KafkaTestCluster kafka;
    private static SchemaRegistryServer registry;

    @BeforeAll
    static void startCluster() {
        kafka = KafkaTestCluster.start(
                BROKERS,
                Map.of(
                        // topics get 3 replicas from ParamHub's setting alone, not from the broker's default
                        "default.replication.factor", "1",
                        // a killed broker is fenced, and its partitions led elsewhere, 1.5 s after it went silent;
                        // a restarted broker registers again once its last incarnation's session has expired
                        "broker.heartbeat.interval.ms", "250",
                        "broker.session.timeout.ms", "1500"),
                Map.of(KILLED, Map.of("controlled.shutdown.enable", "false")));
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    }

    @AfterAll
    static void stopCluster() {
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void shouldTrainTheSameModelBitForBitWhileEachBrokerRestartsAndOneIsLost(@TempDir final Path stateDir)
            throws Exception {
        // given
        final LinearProblem problem = LinearJobs.problem();
        // a worker is silent while the leader of its membership partition moves: far under this
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("replicated-linear", 3, 4, EPOCHS))
                .setSessionTimeoutMs(60_000)
                .build();
        final TopicSetup replicated = TopicSetup.defaults().withReplication(TopicReplication.of((short) 3, 2));
        final ComputeEmulation paced = new ComputeEmulation(1.0, 0, SAMPLE_COST_MICROS);
        final AtomicLong clock = new AtomicLong(-1);
        final RunListener watch = new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                clock.accumulateAndGet(telemetry.getClock(), Math::max);
            }
        };
        final CompletableFuture<TrainingRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                        .withTopicSetup(replicated)
                        .withEmulation(Map.of(0, paced, 1, paced, 2, paced))
                        .run(spec, problem.data(), watch);
            } catch (final InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        // when
        awaitClock(run, clock, FIRST_FAULT_CLOCK);
        for (final int broker : kafka.brokerIds()) {
            kafka.restartBroker(broker);
            await().alias("every replica back in sync after broker " + broker + " restarted")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(kafka::replicasInSync);
            awaitClock(run, clock, clock.get() + CLOCKS_BETWEEN_FAULTS);
        }
        kafka.stopBroker(KILLED);
        final long killedAt = clock.get();
        awaitClock(run, clock, killedAt + CLOCKS_BETWEEN_FAULTS);
        final TrainingRun.Result result = run.get(150, TimeUnit.SECONDS);

        // then
        assertThat(killedAt)
                .as("the broker was lost before training ended")
                .isLessThan(result.job().iterations() - 1);
        assertThat(result.last().version()).isEqualTo(result.job().iterations());
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
        assertThat(result.deadLetters()).isZero();
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        try (Admin admin =
                Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            final String changelog = admin.listTopics().names().get().stream()
                    .filter(name -> name.startsWith("paramhub-aggregator-") && name.endsWith("-changelog"))
                    .findFirst()
                    .orElseThrow();
            for (final String topic :
                    List.of(topics.gradients().name(), topics.model().name(), changelog)) {
                final TopicDescription description = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get()
                        .get(topic);
                assertThat(description.partitions().get(0).replicas()).as(topic).hasSize(3);
                final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                final Config config =
                        admin.describeConfigs(List.of(resource)).all().get().get(resource);
                assertThat(config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value())
                        .as(topic)
                        .isEqualTo("2");
            }
        }
    }

    /** Waits until training reaches {@code target}; fails at once if it ends first (too early for the faults). */
    private static void awaitClock(
            final CompletableFuture<TrainingRun.Result> run, final AtomicLong clock, final long target) {
        await().alias("training reached clock " + target)
                .atMost(Duration.ofSeconds(90))
                .until(() -> run.isDone() || clock.get() >= target);
        assertThat(run).as("training still running at clock " + target).isNotDone();
    }
}
