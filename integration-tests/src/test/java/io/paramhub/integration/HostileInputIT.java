package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.aggregator.AggregatorTopology;
import io.paramhub.topology.errors.DeadLetters;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.WorkerIds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input in the middle of a real 4-worker BSP run on a real broker, written by worker-000 between two of its
 * clocks: garbage on {@code model}, {@code jobs}, {@code membership} and {@code commands}, a valid gradient from
 * {@code worker-099}, a gradient of clock + 10^6 from a worker of the job, and a heartbeat stamped 60 s ahead of
 * the broker; and, against an aggregator with a 1 MiB job memory budget and {@code dead-letters} at Kafka's default
 * {@code max.message.bytes} (1 MiB) as on a production cluster, a ~1 MiB garbage gradient, a valid job estimated
 * over the budget and one within it alone but not with the running job. Every worker finishes, each record is
 * dead-lettered with its reason (the garbage cut to 64 KiB with its length and hash, the job with its memory
 * figures), and the model is the in-process reference's, bit for bit.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputIT {

    private static final String JOB = "hostile-input-it";
    private static final int WORKERS = 4;
    private static final int SHARDS = 2;
    private static final long INJECTED_AT_CLOCK = 5;
    /** Over the 1 MiB that dead-letters takes once a dead letter's fields are added to it. */
    private static final int HUGE_GARBAGE_BYTES = 1_048_400;

    private static final long JOB_MEMORY_BUDGET = 1024 * 1024;

    private KafkaTestCluster kafka;
    private SchemaRegistryServer registry;
    private LinearProblem problem;
    private JobSpec spec;
    private TopicCatalog topics;
    private TrainingRun.Result result;
    private final List<Injection> injected = new ArrayList<>();
    private List<DeadLetter> deadLetters;

    @BeforeAll
    void trainUnderHostileInput(@TempDir final Path stateDir) throws InterruptedException {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        problem = LinearJobs.problem();
        spec = LinearJobs.job(JOB, WORKERS, SHARDS, 2);
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        final String injecting = WorkerIds.of(0);
        try (Injector injector = new Injector(kafka.bootstrapServers())) {
            final RunListener listener = new RunListener() {
                @Override
                public void onIteration(final IterationTelemetry telemetry) {
                    if (injecting.equals(telemetry.getWorker()) && telemetry.getClock() == INJECTED_AT_CLOCK) {
                        inject(injector);
                    }
                }
            };
            final Properties settings = new Properties();
            settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            settings.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
            settings.put(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG, String.valueOf(JOB_MEMORY_BUDGET));
            result = new TrainingRun(KafkaConnection.of(settings), TopicCatalog.DEFAULT_PREFIX, stateDir)
                    .run(spec, problem.data(), listener);
        }
        deadLetters = readDeadLetters();
    }

    @AfterAll
    void stopCluster() {
        registry.close();
        kafka.close();
    }

    @Test
    void shouldFinishEveryWorkerWithTheParametersOfTheReferenceRunBitForBit() {
        assertThat(injected).hasSize(10);
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    @Test
    void shouldDeadLetterGarbageOnJobsMembershipAndCommandsOnceAsMalformed() {
        for (final String kind : List.of("jobs-garbage", "membership-garbage", "commands-garbage")) {
            assertThat(lettersOf(injection(kind)))
                    .as(kind)
                    .singleElement()
                    .satisfies(letter -> assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED));
        }
    }

    @Test
    void shouldDeadLetterGarbageOnModelOnceAsMalformedNamingAWorkerOfTheJob() {
        // the run's workers share one reader of model: whichever of them polled the garbage sets it aside, once
        assertThat(lettersOf(injection("model-garbage"))).singleElement().satisfies(letter -> {
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED);
            assertThat(IntStream.range(0, WORKERS).mapToObj(WorkerIds::of))
                    .contains(letter.getError().substring(0, letter.getError().indexOf(' ')));
        });
    }

    @Test
    void shouldDeadLetterAGradientFromAWorkerOutsideTheJobAsUnknownWorker() {
        assertThat(lettersOf(injection("worker-099"))).singleElement().satisfies(letter -> {
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.UNKNOWN_WORKER);
            assertThat(letter.getError()).contains("worker-099");
        });
    }

    @Test
    void shouldDeadLetterAGradientAMillionClocksAheadAsClockAhead() {
        assertThat(lettersOf(injection("clock-ahead")))
                .singleElement()
                .satisfies(letter -> assertThat(letter.getReason()).isEqualTo(DeadLetterReason.CLOCK_AHEAD));
    }

    @Test
    void shouldDeadLetterAHeartbeatStampedAMinuteAheadAsClockSkew() {
        assertThat(lettersOf(injection("heartbeat-ahead")))
                .singleElement()
                .satisfies(letter -> assertThat(letter.getReason()).isEqualTo(DeadLetterReason.CLOCK_SKEW));
    }

    @Test
    void shouldDeadLetterAOneMebibyteGarbageGradientCutWithItsLengthAndHash() throws Exception {
        final Injection huge = injection("huge-garbage");
        assertThat(lettersOf(huge)).singleElement().satisfies(letter -> {
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED);
            assertThat(letter.getOriginalLength()).isEqualTo(HUGE_GARBAGE_BYTES);
            assertThat(bytes(letter.getOriginalBytes()))
                    .isEqualTo(Arrays.copyOf(huge.value(), DeadLetters.MAX_ORIGINAL_BYTES));
            assertThat(bytes(letter.getOriginalSha256()))
                    .isEqualTo(MessageDigest.getInstance("SHA-256").digest(huge.value()));
        });
    }

    @Test
    void shouldDeadLetterAJobOverTheMemoryBudgetAsInvalidWithItsFigures() {
        assertThat(lettersOf(injection("over-budget"))).singleElement().satisfies(letter -> {
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_JOB);
            assertThat(letter.getError())
                    .startsWith("invalid job over-budget: estimated memory 3.5 MiB > budget 1.0 MiB")
                    .contains(
                            "parameters 0.3 MiB",
                            "optimizer state 0.5 MiB (ADAM, 2 slots)",
                            "buffered gradients 1.0 MiB (BSP, 4 workers)",
                            "snapshots 1.8 MiB");
        });
    }

    @Test
    void shouldDeadLetterAJobThatFitsTheBudgetAloneButNotWithTheRunningJobWithBothFigures() {
        assertThat(lettersOf(injection("over-total"))).singleElement().satisfies(letter -> {
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_JOB);
            assertThat(letter.getError())
                    .isEqualTo("invalid job over-total: estimated memory 1.0 MiB (1048560 bytes) + 0.0 MiB (748 bytes) "
                            + "of the 1 live job already admitted > budget 1.0 MiB (1048576 bytes) "
                            + "(paramhub.aggregator.job.memory.budget.bytes, across live jobs): "
                            + "delete a finished job or raise the budget");
        });
    }

    @Test
    void shouldDeadLetterNothingElse() {
        assertThat(deadLetters).hasSize(injected.size());
    }

    /** Writes every hostile record; waits until the aggregator has dead-lettered those it reads. */
    private void inject(final Injector injector) {
        limitDeadLettersToKafkasDefault();
        final byte[] garbage = "not Avro at all".getBytes(StandardCharsets.UTF_8);
        final byte[] hugeGarbage = new byte[HUGE_GARBAGE_BYTES];
        new Random(29).nextBytes(hugeGarbage);
        hugeGarbage[0] = 'g';
        final long clock = INJECTED_AT_CLOCK + 1;
        List.of(
                        planned("model-garbage", topics.model().name(), ShardKeys.shard(JOB, 0), garbage),
                        planned("jobs-garbage", topics.jobs().name(), "garbage-job", garbage),
                        planned("membership-garbage", topics.membership().name(), ShardKeys.worker(JOB, "x"), garbage),
                        planned("commands-garbage", topics.commands().name(), ShardKeys.worker(JOB, "x"), garbage),
                        gradient("worker-099", "worker-099", clock),
                        gradient("clock-ahead", WorkerIds.of(1), clock + 1_000_000),
                        heartbeatAhead(Duration.ofSeconds(60)),
                        planned("huge-garbage", topics.gradients().name(), ShardKeys.shard(JOB, 1), hugeGarbage),
                        planned("over-budget", topics.jobs().name(), "over-budget", overBudgetJob()),
                        planned("over-total", topics.jobs().name(), "over-total", overTotalJob()))
                .forEach(injector::send);
        try {
            injected.addAll(injector.flush());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while injecting", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("could not inject", e.getCause());
        }
        final Set<String> aggregatorReads = injected.stream()
                .filter(injection -> !injection.kind().equals("model-garbage"))
                .map(HostileInputIT::coordinates)
                .collect(Collectors.toSet());
        await().alias("the aggregator's dead letters of the hostile records")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> readDeadLetters().stream()
                        .map(HostileInputIT::coordinates)
                        .collect(Collectors.toSet())
                        .containsAll(aggregatorReads));
    }

    /** dead-letters takes records of at most 1 MiB, as on a cluster left at Kafka's defaults. */
    private void limitDeadLettersToKafkasDefault() {
        try (Admin admin =
                Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(
                                    ConfigResource.Type.TOPIC,
                                    topics.deadLetters().name()),
                            List.of(new AlterConfigOp(
                                    new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588"),
                                    AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while configuring dead-letters", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("could not configure dead-letters", e.getCause());
        }
    }

    /**
     * A valid job the budget refuses: 65,536 parameters under Adam, BSP over 4 workers, estimated 0.25 MiB of
     * parameters, 0.5 MiB of moments, 1 MiB of buffered gradients and 1.75 MiB in the stores.
     */
    private byte[] overBudgetJob() {
        final JobSpec big = JobSpec.newBuilder(spec)
                .setJob("over-budget")
                .setInputs(65_535)
                .setParameters(65_536)
                .setOptimizer(OptimizerKind.ADAM)
                .build();
        return topics.jobs().valueSerde().serializer().serialize(topics.jobs().name(), big);
    }

    /**
     * A valid job the budget takes alone but not with the running one: 52,428 parameters under plain SGD, BSP
     * with 1 worker, estimated 20 bytes a parameter (1,048,560 bytes), 16 bytes under the budget; the running job
     * (17 parameters, momentum, 4 workers) is estimated 748 bytes.
     */
    private byte[] overTotalJob() {
        final JobSpec fitsAlone = JobSpec.newBuilder(spec)
                .setJob("over-total")
                .setInputs(52_427)
                .setParameters(52_428)
                .setMomentum(0.0)
                .setExpectedWorkers(1)
                .build();
        return topics.jobs().valueSerde().serializer().serialize(topics.jobs().name(), fitsAlone);
    }

    private static byte[] bytes(final ByteBuffer buffer) {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static Injection.Planned planned(
            final String kind, final String topic, final String key, final byte[] value) {
        return new Injection.Planned(kind, topic, null, key, value, Set.of());
    }

    /** A well-formed gradient for shard 0 of the job, from {@code worker} at {@code clock}. */
    private Injection.Planned gradient(final String kind, final String worker, final long clock) {
        final GradientShard gradient = GradientShard.newBuilder()
                .setJob(JOB)
                .setShard(0)
                .setWorker(worker)
                .setClock(clock)
                .setBaseVersion(clock)
                .setSampleCount(1)
                .setLoss(1.0)
                .setValues(FloatPacking.pack(new float[JobSpecs.layout(spec).length(0)]))
                .build();
        return planned(
                kind,
                topics.gradients().name(),
                ShardKeys.shard(JOB, 0),
                topics.gradients()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.gradients().name(), gradient));
    }

    /** worker-002's heartbeat, stamped {@code ahead} of now; the broker stamps the record with its own time. */
    private Injection.Planned heartbeatAhead(final Duration ahead) {
        final WorkerStatus status = WorkerStatus.newBuilder()
                .setJob(JOB)
                .setWorker(WorkerIds.of(2))
                .setState(WorkerState.HEARTBEAT)
                .setClock(INJECTED_AT_CLOCK)
                .setTimestamp(Instant.now().plus(ahead))
                .build();
        return planned(
                "heartbeat-ahead",
                topics.membership().name(),
                ShardKeys.worker(JOB, WorkerIds.of(2)),
                topics.membership()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.membership().name(), status));
    }

    private Injection injection(final String kind) {
        return injected.stream()
                .filter(injection -> injection.kind().equals(kind))
                .findFirst()
                .orElseThrow();
    }

    private List<DeadLetter> lettersOf(final Injection injection) {
        return deadLetters.stream()
                .filter(letter -> coordinates(letter).equals(coordinates(injection)))
                .toList();
    }

    private List<DeadLetter> readDeadLetters() {
        return TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.deadLetters().name(),
                        new StringDeserializer(),
                        topics.deadLetters().valueSerde().deserializer())
                .stream()
                .map(ConsumerRecord::value)
                .toList();
    }

    private static String coordinates(final Injection injection) {
        return injection.topic() + "/" + injection.partition() + "@" + injection.offset();
    }

    private static String coordinates(final DeadLetter letter) {
        return letter.getSourceTopic() + "/" + letter.getPartition() + "@" + letter.getOffset();
    }
}
