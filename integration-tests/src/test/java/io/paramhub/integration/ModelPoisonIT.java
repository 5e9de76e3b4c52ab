package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.worker.WorkerSettings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes that are not a {@code ModelShard} written to {@code model} in the middle of a real BSP run on a real
 * broker, on every shard's key: the workers set each one aside on {@code dead-letters} (once: the run's workers
 * share one reader of {@code model}, so whichever of them polled it writes the letter, reason {@code MALFORMED},
 * with the bytes) and go on, and the run ends with the parameters of the in-process
 * reference run, bit for bit. Before, the first such record threw out of every worker's poll and stopped the job.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModelPoisonIT {

    private static final String JOB = "model-poison-it";
    private static final int WORKERS = 3;
    private static final int SHARDS = 2;
    private static final long POISONED_CLOCK = 5;
    private static final byte[] GARBAGE = "not a model shard".getBytes(StandardCharsets.UTF_8);

    private KafkaTestCluster kafka;
    private SchemaRegistryServer registry;
    private LinearProblem problem;
    private JobSpec spec;
    private TopicCatalog topics;
    private TrainingRun.Result result;
    /** partition/offset of each garbage record written to {@code model}. */
    private final Set<String> poisoned = ConcurrentHashMap.newKeySet();

    @BeforeAll
    void trainWithGarbageOnModel(@TempDir final Path stateDir) throws InterruptedException {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        problem = LinearJobs.problem();
        spec = LinearJobs.job(JOB, WORKERS, SHARDS, 2);
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        final String poisoner = WorkerSettings.of(JOB, 0, WORKERS).workerId();
        try (KafkaProducer<String, byte[]> producer = garbageProducer()) {
            final RunListener poisoning = new RunListener() {
                @Override
                public void onIteration(final IterationTelemetry telemetry) {
                    if (poisoner.equals(telemetry.getWorker()) && telemetry.getClock() == POISONED_CLOCK) {
                        IntStream.range(0, SHARDS).forEach(shard -> poisoned.add(write(producer, shard)));
                    }
                }
            };
            result = new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                    .run(spec, problem.data(), poisoning);
        }
    }

    @AfterAll
    void stopCluster() {
        registry.close();
        kafka.close();
    }

    @Test
    void shouldFinishWithTheParametersOfTheRunWithoutGarbageBitForBit() {
        assertThat(poisoned).hasSize(SHARDS);
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    @Test
    void shouldDeadLetterEachGarbageRecordOnceAsMalformedNamingAWorkerOfTheJob() {
        final List<ConsumerRecord<String, DeadLetter>> letters = TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.deadLetters().name(),
                        new StringDeserializer(),
                        topics.deadLetters().valueSerde().deserializer())
                .stream()
                .filter(letter ->
                        letter.value().getSourceTopic().equals(topics.model().name()))
                .toList();
        final Map<String, List<DeadLetter>> byRecord = letters.stream()
                .map(ConsumerRecord::value)
                .collect(Collectors.groupingBy(letter -> letter.getPartition() + "/" + letter.getOffset()));
        assertThat(byRecord.keySet()).isEqualTo(poisoned);
        final Set<String> workers = IntStream.range(0, WORKERS)
                .mapToObj(index -> WorkerSettings.of(JOB, index, WORKERS).workerId())
                .collect(Collectors.toSet());
        byRecord.values().forEach(copies -> {
            assertThat(copies).hasSize(1);
            final DeadLetter letter = copies.get(0);
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED);
            assertThat(bytes(letter.getOriginalBytes())).isEqualTo(GARBAGE);
            assertThat(workers)
                    .contains(letter.getError().substring(0, letter.getError().indexOf(' ')));
        });
        assertThat(letters).allSatisfy(letter -> assertThat(letter.key()).startsWith(JOB));
    }

    private static byte[] bytes(final ByteBuffer buffer) {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** Writes the garbage on {@code shard}'s key and returns where it landed. */
    private String write(final KafkaProducer<String, byte[]> producer, final int shard) {
        try {
            final RecordMetadata written = producer.send(
                            new ProducerRecord<>(topics.model().name(), ShardKeys.shard(JOB, shard), GARBAGE))
                    .get();
            return written.partition() + "/" + written.offset();
        } catch (final Exception e) {
            throw new IllegalStateException(
                    "could not write garbage to " + topics.model().name(), e);
        }
    }

    private KafkaProducer<String, byte[]> garbageProducer() {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }
}
