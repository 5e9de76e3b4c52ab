package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.aggregator.AggregatorApp;
import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.Optimizer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.jobs.JobSpecs;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across a crash: the aggregator runs in its own JVM, is killed with SIGKILL and
 * restarted on an empty state directory, so it restores its shards from their changelogs and the
 * gradients waiting for their clock from {@code gradients}. Mid-run, the BSP model at the end is
 * bit-identical to the run without a crash; the outage (training stalls) is longer than the job's session
 * timeout, so this also checks that no worker is taken for dead while the aggregator catches up. Workers read model
 * versions before their commit; the first aggregator never commits a round, so every version the workers
 * trained on before the crash is aborted and produced again. Between a gradient and its round's model,
 * the gradient read (and committed) before the crash still counts.
 *
 * <p>The killed aggregator's open transaction holds its successor back until the transaction coordinator
 * aborts it, at its transaction timeout: the aggregators here run with timeouts of a few seconds, and the
 * broker looks for timed-out transactions every half second instead of every 10 s.
 */
@Tag("integration")
class AggregatorCrashIT extends ClusterTestBase {

    private static final long KILL_AT_CLOCK = 80;
    private static final long SESSION_TIMEOUT_MS = 3_000;
    /**
     * How often the first aggregator of the mid-run crash commits, besides the commits for version 0, joins and
     * departures: training reaches {@link #KILL_AT_CLOCK} some 3 s after the joins, so the crash aborts every
     * round it published.
     */
    private static final long COMMIT_INTERVAL_MS = 4_500;
    /**
     * Its transactions' timeout, 2 s more than a commit interval: the coordinator aborts the transaction open at
     * the crash some 4 s after it, while its successor is still starting or waiting for the dead member's 6 s
     * consumer session to expire, so that the abort does not lengthen the outage (Streams' 10 s did).
     */
    private static final long TRANSACTION_TIMEOUT_MS = 6_500;

    @BeforeAll
    public static void startCluster() {
        // the coordinator aborts a timed-out transaction within half a second of its timeout, not up to 10 s later
        start(Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500"));
    }

    @Test
    void shouldProduceTheSameModelBitForBitWhenTheAggregatorIsKilledMidRun(@TempDir final Path dir) throws Exception {
        // given
        final LinearProblem problem = LinearJobs.problem();
        // a session timeout well under the outage (the dead member's 6 s consumer session, a JVM start,
        // a restore), so the restarted aggregator reads gradients stamped after every worker's last
        // heartbeat it knows of: it must wait for the heartbeats, not declare the workers dead
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("crash-linear", 3, 4, 6))
                .setSessionTimeoutMs(SESSION_TIMEOUT_MS)
                .build();
        final CountDownLatch reachedKillClock = new CountDownLatch(1);
        final AtomicLong lastIteration = new AtomicLong();
        final AtomicLong longestStall = new AtomicLong();
        final RunListener watch = new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                final long now = System.nanoTime();
                final long previous = lastIteration.getAndSet(now);
                if (previous != 0) {
                    longestStall.accumulateAndGet(now - previous, Math::max);
                }
                if (telemetry.getClock() >= KILL_AT_CLOCK) {
                    reachedKillClock.countDown();
                }
            }
        };
        // the versions of the rounds since the last commit are aborted by the crash
        Process aggregator = startAggregator(
                dir.resolve("state-1"),
                Path.of("target", "crash-it-aggregator-1.log"),
                "-Dcommit.interval.ms=" + COMMIT_INTERVAL_MS,
                "-Dtransaction.timeout.ms=" + TRANSACTION_TIMEOUT_MS);

        // when
        final CompletableFuture<TrainingRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new TrainingRun(
                                kafka.bootstrapServers(),
                                registry.url(),
                                TopicCatalog.DEFAULT_PREFIX,
                                dir.resolve("unused"))
                        .withAggregators(0)
                        .run(spec, problem.data(), watch);
            } catch (final InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(reachedKillClock.await(120, TimeUnit.SECONDS))
                .as("training reached clock " + KILL_AT_CLOCK)
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
        assertThat(Duration.ofNanos(longestStall.get()))
                .as("training stalled longer than the job's session timeout while the aggregator was down")
                .isGreaterThan(Duration.ofMillis(SESSION_TIMEOUT_MS));
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        final String shard0 = ShardKeys.shard(spec.getJob(), 0);
        final List<Long> produced = modelVersions(topics, shard0, IsolationLevel.READ_UNCOMMITTED);
        assertThat(produced)
                .as("versions workers could train on were aborted by the crash and produced again")
                .hasSizeGreaterThan(new HashSet<>(produced).size());
        assertThat(modelVersions(topics, shard0, IsolationLevel.READ_COMMITTED))
                .as("each committed once")
                .doesNotHaveDuplicates();
    }

    @Test
    void shouldCountAGradientReadBeforeTheCrashInItsRoundsModel(@TempDir final Path dir) throws Exception {
        // given: a two-worker BSP job of one shard, both workers joined, version 0 published
        final JobSpec spec = LinearJobs.job("restore-linear", 2, 1, 1);
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        final String key = ShardKeys.shard(spec.getJob(), 0);
        // it commits every 100 ms: a transaction timeout of 3 s is ample, and its successor waits no longer
        Process aggregator = startAggregator(
                dir.resolve("state-1"), Path.of("target", "crash-it-restore-1.log"), "-Dtransaction.timeout.ms=3000");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        ClientProperties.producer(client), new StringSerializer(), new ByteArraySerializer());
                Admin admin = Admin.create(client)) {
            // the aggregator creates the topics; a client touching one first could have it auto-created
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> admin.listTopics()
                            .names()
                            .get()
                            .containsAll(List.of(
                                    topics.jobs().name(),
                                    topics.model().name(),
                                    topics.membership().name())));
            JobSubmitter.submit(topics.jobs(), client, spec);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> modelVersions(topics, key).contains(0L));
            for (final String worker : List.of("worker-000", "worker-001")) {
                send(
                        producer,
                        topics.membership(),
                        ShardKeys.worker(spec.getJob(), worker),
                        WorkerStatus.newBuilder()
                                .setJob(spec.getJob())
                                .setWorker(worker)
                                .setState(WorkerState.JOINED)
                                .setClock(0)
                                .setTimestamp(Instant.now())
                                .build());
            }
            final float[] first = gradientValues(1);
            final float[] second = gradientValues(2);
            final RecordMetadata firstSent = send(
                            producer, topics.gradients(), key, gradient(spec, "worker-000", first))
                    .get();
            // the aggregator reads it, buffers it in memory for clock 0 and commits its offset
            final TopicPartition partition = new TopicPartition(firstSent.topic(), firstSent.partition());
            await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset(admin, partition) > firstSent.offset());

            // when: killed before worker-001's gradient completes the clock, restarted with no local state
            aggregator.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            aggregator = startAggregator(dir.resolve("state-2"), Path.of("target", "crash-it-restore-2.log"));
            send(producer, topics.gradients(), key, gradient(spec, "worker-001", second))
                    .get();

            // then: version 1 is one step on both gradients, the first read again from gradients
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> modelVersions(topics, key).contains(1L));
            final ModelShard version1 = TopicContents.readAll(
                            kafka.bootstrapServers(),
                            topics.model().name(),
                            new StringDeserializer(),
                            topics.model().valueSerde().deserializer())
                    .stream()
                    .filter(record -> key.equals(record.key()) && record.value().getVersion() == 1)
                    .findFirst()
                    .orElseThrow()
                    .value();
            assertThat(FloatPacking.unpack(version1.getValues())).containsExactly(oneStep(spec, first, second));
            assertThat(version1.getClocks()).containsEntry("worker-000", 1L).containsEntry("worker-001", 1L);
        } finally {
            aggregator.destroy();
            aggregator.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static float[] gradientValues(final int seed) {
        final float[] values = new float[17];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i + 1) * 0.25f * seed - 2;
        }
        return values;
    }

    private static GradientShard gradient(final JobSpec spec, final String worker, final float[] values) {
        return GradientShard.newBuilder()
                .setJob(spec.getJob())
                .setShard(0)
                .setWorker(worker)
                .setClock(0)
                .setBaseVersion(0)
                .setSampleCount(spec.getGlobalBatch() / 2)
                .setLoss(1.0)
                .setValues(FloatPacking.pack(values))
                .build();
    }

    /** Version 1 computed here: the two workers' sums in worker order, divided by the batch, one optimizer step. */
    private static float[] oneStep(final JobSpec spec, final float[] first, final float[] second) {
        final float[] params = JobSpecs.model(spec).initialParameters(spec.getSeed());
        final GradientSum sum = new GradientSum(params.length);
        sum.add(first, spec.getGlobalBatch() / 2);
        sum.add(second, spec.getGlobalBatch() / 2);
        final Optimizer optimizer = JobSpecs.optimizer(spec);
        optimizer.step(
                params,
                sum.mean(),
                new float[optimizer.stateSlots()][params.length],
                1,
                JobSpecs.schedule(spec).factor(0));
        return params;
    }

    private static <V> Future<RecordMetadata> send(
            final KafkaProducer<String, byte[]> producer,
            final Topic<String, V> topic,
            final String key,
            final V value) {
        return producer.send(new ProducerRecord<>(
                topic.name(), key, topic.valueSerde().serializer().serialize(topic.name(), value)));
    }

    private static List<Long> modelVersions(final TopicCatalog topics, final String key) {
        return modelVersions(topics, key, IsolationLevel.READ_COMMITTED);
    }

    private static List<Long> modelVersions(
            final TopicCatalog topics, final String key, final IsolationLevel isolation) {
        return TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.model().name(),
                        new StringDeserializer(),
                        topics.model().valueSerde().deserializer(),
                        isolation)
                .stream()
                // the final version published once more with the job's end marked is not a version of its own
                .filter(record -> key.equals(record.key()) && !record.value().getFinalVersion())
                .map(record -> record.value().getVersion())
                .toList();
    }

    private static long committedOffset(final Admin admin, final TopicPartition partition) throws Exception {
        final OffsetAndMetadata committed = admin.listConsumerGroupOffsets(AggregatorRunner.DEFAULT_APPLICATION_ID)
                .partitionsToOffsetAndMetadata()
                .get()
                .get(partition);
        return committed == null ? -1 : committed.offset();
    }

    /**
     * The aggregator app in a JVM of its own, so that it can be killed like a real process; compiled by C1 alone
     * and with the serial collector, which start it sooner on a small machine.
     */
    private static Process startAggregator(final Path stateDir, final Path log, final String... settings)
            throws IOException {
        final String java =
                Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                AggregatorApp.class.getName(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url(),
                "--state-dir",
                stateDir.toString(),
                "--http-port",
                "0",
                "-Dsession.timeout.ms=6000"));
        command.addAll(List.of(settings));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
