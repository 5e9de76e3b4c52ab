package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.LinearRegression;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.worker.WorkerSettings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bad input injected into a real BSP training run on a real broker: every bad record comes out of
 * {@code dead-letters} exactly once, with its reason, key, original bytes, topic, partition and offset,
 * and training finishes with the same parameters, bit for bit, as the in-process reference run that never
 * saw any bad input.
 *
 * <p>One run (one aggregator start; 5 epochs of 32 clocks, 3 workers, 4 shards) takes all the injections,
 * made by worker-000 between two of its iterations, so they precede its next gradients on every shard's
 * partition and the run cannot finish before the aggregator has met them: at clock 5 one record of each
 * kind of bad gradient and garbage on {@code membership} (the tests named after them check one each);
 * then at clocks 10, 22, ..., 118 batches of 1,000 fuzzed records drawn from a seeded {@link Random}.
 * The bad gradients carry the keys, or at least land on the partitions, of the job's real shards, so the
 * shards' own tasks meet them among the workers' gradients.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeadLetterIT {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterIT.class);
    private static final String DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";
    private static final String JOB = "dead-letter-it";
    private static final int WORKERS = 3;
    private static final int SHARDS = 4;
    private static final int EPOCHS = 5;
    private static final String INJECTING_WORKER =
            WorkerSettings.of(JOB, 0, WORKERS).workerId();
    private static final long TARGETED_CLOCK = 5;
    private static final int FUZZ_RECORDS = 10_000;
    private static final int FUZZ_BATCHES = 10;
    private static final long FUZZ_FIRST_CLOCK = 10;
    private static final long FUZZ_EVERY = 12;
    private static final long FUZZ_SEED = 20_240_601L;

    private KafkaTestCluster kafka;
    private SchemaRegistryServer registry;
    private LinearProblem problem;
    private JobSpec spec;
    private TopicCatalog topics;
    private TrainingRun.Result result;
    private final List<Injection> targeted = new ArrayList<>();
    private final List<Injection> fuzzed = new ArrayList<>();
    private List<ConsumerRecord<String, DeadLetter>> deadLetters;
    /** The dead letters by the {@link #coordinates(Injection) coordinates} of the record each one sets aside. */
    private Map<String, List<ConsumerRecord<String, DeadLetter>>> deadLettersByCoordinates;

    @BeforeAll
    void trainWithBadInput(@TempDir final Path stateDir) throws InterruptedException {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        problem = DataSources.linearProblem(DATASET);
        spec = linearJob();
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        try (Injector injector = new Injector(kafka.bootstrapServers())) {
            final RunListener injecting = new RunListener() {
                private final Random random = new Random(FUZZ_SEED);
                private List<ConsumerRecord<String, byte[]>> applied;

                @Override
                public void onIteration(final IterationTelemetry telemetry) {
                    final long clock = telemetry.getClock();
                    if (!INJECTING_WORKER.equals(telemetry.getWorker())) {
                        return;
                    }
                    if (clock == TARGETED_CLOCK) {
                        applied = appliedGradients(TARGETED_CLOCK);
                        targeted.addAll(injectTargeted(injector, applied));
                    } else if (clock >= FUZZ_FIRST_CLOCK
                            && (clock - FUZZ_FIRST_CLOCK) % FUZZ_EVERY == 0
                            && (clock - FUZZ_FIRST_CLOCK) / FUZZ_EVERY < FUZZ_BATCHES) {
                        fuzzed.addAll(injectFuzz(injector, random, applied));
                    }
                }
            };
            // each worker's own gradient records, which the injections replay and forge
            result = new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                    .withoutHostSum()
                    .run(spec, problem.data(), injecting);
        }
        deadLetters = readDeadLetters();
        deadLettersByCoordinates = deadLetters.stream().collect(Collectors.groupingBy(DeadLetterIT::coordinates));
    }

    @AfterAll
    void stopCluster() {
        registry.close();
        kafka.close();
    }

    @Test
    void shouldDeadLetterBytesThatAreNotAvroAsMalformed() {
        assertDeadLettered(targeted("not-avro"), Set.of(DeadLetterReason.MALFORMED));
    }

    @Test
    void shouldDeadLetterAConfluentHeaderWithAnUnknownSchemaIdAsUnknownSchema() {
        assertDeadLettered(targeted("unknown-schema"), Set.of(DeadLetterReason.UNKNOWN_SCHEMA));
    }

    @Test
    void shouldDeadLetterAGradientOfTheWrongLengthAsWrongLength() {
        assertDeadLettered(targeted("wrong-length"), Set.of(DeadLetterReason.WRONG_LENGTH));
    }

    @Test
    void shouldDeadLetterNanAndInfiniteValuesAsNonFinite() {
        final List<Injection> nonFinite = targeted.stream()
                .filter(injection -> injection.kind().equals("non-finite"))
                .toList();
        assertThat(nonFinite).hasSize(2);
        nonFinite.forEach(injection -> assertDeadLettered(injection, Set.of(DeadLetterReason.NON_FINITE)));
    }

    @Test
    void shouldDeadLetterAGradientOfAnUnknownJobAsUnknownJob() {
        assertDeadLettered(targeted("unknown-job"), Set.of(DeadLetterReason.UNKNOWN_JOB));
    }

    @Test
    void shouldDeadLetterACopyOfAGradientWhoseClockIsAppliedAsDuplicate() {
        assertDeadLettered(targeted("duplicate"), Set.of(DeadLetterReason.DUPLICATE));
    }

    @Test
    void shouldDeadLetterGarbageOnMembershipAsMalformed() {
        final Injection garbage = targeted("membership-garbage");
        assertThat(garbage.topic()).isEqualTo(topics.membership().name());
        assertDeadLettered(garbage, Set.of(DeadLetterReason.MALFORMED));
    }

    @Test
    void shouldDeadLetterEveryOneOfTenThousandFuzzedRecordsExactlyOnce() {
        assertThat(fuzzed).hasSize(FUZZ_RECORDS);
        final Map<String, Long> kinds =
                fuzzed.stream().collect(Collectors.groupingBy(Injection::kind, TreeMap::new, Collectors.counting()));
        log.info("fuzzed records by kind: {}", kinds);
        fuzzed.forEach(injection -> assertDeadLettered(injection, injection.reasons()));
    }

    @Test
    void shouldDeadLetterNothingButTheInjectedRecords() {
        final Map<DeadLetterReason, Long> reasons = deadLetters.stream()
                .collect(Collectors.groupingBy(
                        letter -> letter.value().getReason(), TreeMap::new, Collectors.counting()));
        log.info("dead letters by reason: {}", reasons);
        assertThat(deadLetters).hasSize(targeted.size() + fuzzed.size());
    }

    @Test
    void shouldFinishWithTheParametersOfTheRunWithoutBadInputBitForBit() {
        final BatchPlan plan = new BatchPlan(problem.data().train().size(), spec.getGlobalBatch(), spec.getSeed());
        final long iterations = (long) plan.iterationsPerEpoch() * spec.getEpochs();
        final float[] reference = ReferenceTrainer.trainSharded(
                new LinearRegression(16),
                problem.data().train(),
                plan,
                JobSpecs.optimizer(spec),
                JobSpecs.layout(spec),
                WORKERS,
                iterations,
                spec.getSeed());
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(result.last().version()).isEqualTo(iterations);
        assertThat(result.finalParameters()).containsExactly(reference);
        assertThat(Evaluation.rmse(
                        new LinearRegression(16),
                        result.finalParameters(),
                        problem.data().train()))
                .isLessThanOrEqualTo(problem.optimalRmse() * 1.03);
    }

    /** One bad gradient of each kind and garbage on {@code membership}; waits until all are dead-lettered. */
    private List<Injection> injectTargeted(
            final Injector injector, final List<ConsumerRecord<String, byte[]>> applied) {
        final PoisonGradients poison = new PoisonGradients(
                topics, spec, injector.partitions(topics.gradients().name()));
        List.of(
                        poison.notAvro(0, "this is not Avro".getBytes(StandardCharsets.UTF_8)),
                        poison.unknownSchema(1, 987_654),
                        poison.wrongLength(2, JobSpecs.layout(spec).length(2) + 1),
                        poison.nonFinite(3, 0, Float.NaN),
                        poison.nonFinite(0, 2, Float.POSITIVE_INFINITY),
                        poison.unknownJob("no-such-job", 1),
                        poison.duplicate(applied.get(applied.size() - 1)),
                        new Injection.Planned(
                                "membership-garbage",
                                topics.membership().name(),
                                null,
                                ShardKeys.worker(spec.getJob(), INJECTING_WORKER),
                                "not a WorkerStatus".getBytes(StandardCharsets.UTF_8),
                                Set.of(DeadLetterReason.MALFORMED)))
                .forEach(injector::send);
        final List<Injection> landed = flush(injector);
        // membership is not ordered with gradients, so wait for its dead letter (and the others') here
        final Set<String> expected =
                landed.stream().map(DeadLetterIT::coordinates).collect(Collectors.toSet());
        await().alias("dead letters of the targeted records")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> readDeadLetters().stream()
                        .map(DeadLetterIT::coordinates)
                        .collect(Collectors.toSet())
                        .containsAll(expected));
        return landed;
    }

    /** A batch of fuzzed bad records; they are only acknowledged, the run's end shows they were met. */
    private List<Injection> injectFuzz(
            final Injector injector, final Random random, final List<ConsumerRecord<String, byte[]>> applied) {
        final PoisonGradients poison = new PoisonGradients(
                topics, spec, injector.partitions(topics.gradients().name()));
        for (int i = 0; i < FUZZ_RECORDS / FUZZ_BATCHES; i++) {
            injector.send(poison.fuzz(random, applied));
        }
        return flush(injector);
    }

    private static List<Injection> flush(final Injector injector) {
        try {
            return injector.flush();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while injecting", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("could not inject", e.getCause());
        }
    }

    /**
     * The workers' gradients of the clocks before {@code clock}, all applied once a worker has finished
     * {@code clock}, read before anything is injected; sorted, so that a seeded pick among them is reproducible.
     */
    private List<ConsumerRecord<String, byte[]>> appliedGradients(final long clock) {
        final long expected = clock * WORKERS * SHARDS;
        final AtomicReference<List<ConsumerRecord<String, byte[]>>> applied = new AtomicReference<>(List.of());
        await().alias("the workers' gradients of the clocks before " + clock)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    applied.set(TopicContents.readAll(
                                    kafka.bootstrapServers(),
                                    topics.gradients().name(),
                                    new StringDeserializer(),
                                    new ByteArrayDeserializer())
                            .stream()
                            .filter(record -> gradient(record).getClock() < clock)
                            .toList());
                    return applied.get().size() == expected;
                });
        return applied.get().stream()
                .sorted(Comparator.comparing((ConsumerRecord<String, byte[]> record) ->
                                gradient(record).getClock())
                        .thenComparing(record -> gradient(record).getShard())
                        .thenComparing(record -> gradient(record).getWorker()))
                .toList();
    }

    private GradientShard gradient(final ConsumerRecord<String, byte[]> record) {
        return topics.gradients().valueSerde().deserializer().deserialize(record.topic(), record.value());
    }

    private List<ConsumerRecord<String, DeadLetter>> readDeadLetters() {
        return TopicContents.readAll(
                kafka.bootstrapServers(),
                topics.deadLetters().name(),
                new StringDeserializer(),
                topics.deadLetters().valueSerde().deserializer());
    }

    private Injection targeted(final String kind) {
        return targeted.stream()
                .filter(injection -> injection.kind().equals(kind))
                .findFirst()
                .orElseThrow();
    }

    /** Exactly one dead letter names the injected record, with one of its reasons, its key and its bytes. */
    private void assertDeadLettered(final Injection injection, final Set<DeadLetterReason> reasons) {
        final List<ConsumerRecord<String, DeadLetter>> letters =
                deadLettersByCoordinates.getOrDefault(coordinates(injection), List.of());
        assertThat(letters)
                .as("dead letters of %s at %s", injection.kind(), coordinates(injection))
                .hasSize(1);
        final ConsumerRecord<String, DeadLetter> letter = letters.get(0);
        assertThat(letter.key()).as("key of %s", injection.kind()).isEqualTo(injection.key());
        assertThat(letter.value().getReason())
                .as("reason of %s", injection.kind())
                .isIn(reasons);
        assertThat(letter.value().getError())
                .as("error of %s", injection.kind())
                .isNotBlank();
        assertThat(bytes(letter.value().getOriginalBytes()))
                .as("original bytes of %s", injection.kind())
                .isEqualTo(injection.value());
    }

    private static String coordinates(final Injection injection) {
        return injection.topic() + "/" + injection.partition() + "@" + injection.offset();
    }

    private static String coordinates(final ConsumerRecord<String, DeadLetter> letter) {
        return letter.value().getSourceTopic() + "/" + letter.value().getPartition() + "@"
                + letter.value().getOffset();
    }

    private static byte[] bytes(final ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static JobSpec linearJob() {
        return JobSpec.newBuilder()
                .setJob(JOB)
                .setModel("linear")
                .setDataset(DATASET)
                .setInputs(16)
                .setOutputs(1)
                .setParameters(17)
                .setShards(SHARDS)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.01)
                .setMomentum(0.9)
                .setGlobalBatch(128)
                .setExpectedWorkers(WORKERS)
                .setEpochs(EPOCHS)
                .setSeed(3)
                .setCreatedAt(Instant.now())
                .build();
    }
}
