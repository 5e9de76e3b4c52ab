package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.schemas.registry.HttpSchemaRegistryClient;
import io.paramhub.schemas.serde.WireFormat;
import io.paramhub.stream.ExampleStreamer;
import io.paramhub.stream.StreamResult;
import io.paramhub.stream.StreamSettings;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.StreamsProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ExampleStreamer} and {@code paramhub stream} against the in-process broker and registry: what lands on the
 * topic is read back with a plain consumer and Avro's generic reader, with the writer schema fetched from the
 * registry by the id in each value.
 */
@Tag("integration")
class ExampleStreamerIT extends ClusterTestBase {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    private Path dir;

    /** An example read back: key, partition, timestamp and the decoded value. */
    private record Read(String key, int partition, long timestamp, TimestampType type, GenericRecord value) {
        long id() {
            return (Long) value.get("id");
        }

        float[] features() {
            final List<?> values = (List<?>) value.get("features");
            final float[] features = new float[values.size()];
            for (int j = 0; j < features.length; j++) {
                features[j] = (Float) values.get(j);
            }
            return features;
        }
    }

    private static Properties connection() {
        final Properties connection = new Properties();
        connection.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        connection.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        return connection;
    }

    /** A CSV of {@code rows} rows, 3 features and a class of 3 in column {@code label}; its data spec. */
    private String csv(final int rows) throws IOException {
        final Random random = new Random(11);
        final StringBuilder text = new StringBuilder("a,b,c,label\n");
        for (int i = 0; i < rows; i++) {
            text.append(random.nextGaussian())
                    .append(',')
                    .append(random.nextGaussian())
                    .append(',')
                    .append(random.nextInt(100))
                    .append(',')
                    .append(i % 3)
                    .append('\n');
        }
        final Path file = dir.resolve("examples.csv");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return "csv:" + file + ",label=label,holdout=0.25";
    }

    /** Every record of {@code topic}, up to each partition's end offset now, decoded with the registry's schemas. */
    private static List<Read> readAll(final String topic) throws IOException {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        final HttpSchemaRegistryClient schemas = new HttpSchemaRegistryClient(registry.url());
        final List<Read> read = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic, TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p, TIMEOUT) < ends.get(p))) {
                assertThat(System.nanoTime()).as("reading " + topic).isLessThan(deadline);
                for (final ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    final Schema schema = schemas.schemaById(WireFormat.schemaId(topic, record.value()));
                    final byte[] value = record.value();
                    final GenericRecord example = new GenericDatumReader<GenericRecord>(schema)
                            .read(
                                    null,
                                    DecoderFactory.get()
                                            .binaryDecoder(
                                                    value,
                                                    WireFormat.HEADER_SIZE,
                                                    value.length - WireFormat.HEADER_SIZE,
                                                    null));
                    read.add(new Read(
                            record.key(), record.partition(), record.timestamp(), record.timestampType(), example));
                }
            }
        }
        return read;
    }

    @Test
    void shouldWriteEachExampleOnceToPartitionIdModPWithItsDataAndDriftedLabelsWhenLoopingOverACsv()
            throws IOException {
        // given: the 60 training rows of an 80-row CSV, 3 classes, one and a half times round, drift from 50 on
        final String spec = csv(80);
        final Dataset data = DataSources.load(spec).train();
        final long count = data.size() * 3L / 2;
        final long driftAt = 50;
        final StreamSettings settings = StreamSettings.of(spec, "examples-csv")
                .withRate(0)
                .withCount(count)
                .withLoop(true)
                .withDriftAt(driftAt)
                .withPartitions(3);
        final long before = System.currentTimeMillis();

        // when
        final StreamResult result;
        try (ExampleStreamer streamer = ExampleStreamer.open(settings, connection())) {
            assertThat(streamer.topic().created()).isTrue();
            assertThat(streamer.topic().partitions()).isEqualTo(3);
            result = streamer.run();
        }
        final long after = System.currentTimeMillis();

        // then: every id once, on partition id % 3, keyed by its id, stamped when sent
        assertThat(data.size()).isEqualTo(60);
        assertThat(result.examples()).isEqualTo(count);
        final List<Read> read = readAll("examples-csv");
        assertThat(read)
                .extracting(Read::id)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
        final Map<Integer, Integer> drifted = new HashMap<>();
        for (final Read example : read) {
            final long id = example.id();
            final int row = (int) (id % data.size());
            assertThat(example.partition()).isEqualTo((int) (id % 3));
            assertThat(example.key()).isEqualTo(Long.toString(id));
            assertThat(example.type()).isEqualTo(TimestampType.CREATE_TIME);
            assertThat(example.timestamp()).isBetween(before, after);
            // the data set's features, and its label before the drift, another class after it, always the same
            assertThat(example.features())
                    .containsExactly(Arrays.copyOfRange(data.x(), row * data.features(), (row + 1) * data.features()));
            final int label = (Integer) example.value().get("label");
            final int original = (int) data.y()[row];
            if (id < driftAt) {
                assertThat(label).as("label of %d", id).isEqualTo(original);
            } else {
                assertThat(label).as("label of %d", id).isNotEqualTo(original);
                assertThat(drifted.computeIfAbsent(original, c -> label)).isEqualTo(label);
            }
        }
        assertThat(drifted.keySet()).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(drifted.values()).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void shouldWriteDoubleTargetsAtTheRateAskedToTheExistingPartitionsWhenStreamingALinearProblem() throws Exception {
        // given: a topic of 2 partitions, 200 regression examples at 400 a second, 4 partitions asked for
        kafka.createTopic("examples-linear", 2);
        final String spec = "linear:n=250,d=4,seed=3";
        final Dataset data = DataSources.load(spec).train();
        final StreamSettings settings =
                StreamSettings.of(spec, "examples-linear").withRate(400).withCount(200);

        // when: streamed in the background
        final StreamResult result;
        try (ExampleStreamer streamer = ExampleStreamer.open(settings, connection())) {
            assertThat(streamer.topic().created()).isFalse();
            assertThat(streamer.topic().describe(4)).contains("exists with 2 partitions, not the 4 asked for");
            result = streamer.start().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }

        // then: paced (the 200th example is due 199/400 s after the first), double labels, id % 2
        assertThat(result.examples()).isEqualTo(200);
        assertThat(result.seconds()).isGreaterThanOrEqualTo(199 / 400.0);
        assertThat(result.rate()).isLessThanOrEqualTo(400 * 1.05);
        final List<Read> read = readAll("examples-linear");
        assertThat(read).hasSize(200);
        for (final Read example : read) {
            final int row = (int) example.id();
            assertThat(example.partition()).isEqualTo(row % 2);
            assertThat(example.value().get("label")).isEqualTo((double) data.y()[row]);
        }
    }

    @Test
    void shouldHaveWrittenEveryExampleItSentWhenStoppedWhileLooping() throws Exception {
        // given: a stream without end
        final StreamSettings settings = StreamSettings.of("linear:n=64,d=2", "examples-stopped")
                .withRate(2000)
                .withLoop(true);
        try (ExampleStreamer streamer = ExampleStreamer.open(settings, connection())) {
            final CompletableFuture<StreamResult> done = streamer.start();
            await().alias("100 examples sent").atMost(TIMEOUT).until(() -> streamer.sent() >= 100);

            // when
            streamer.stop();
            final StreamResult result = done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            // then: past the data set's end, all sent written, and nothing more
            assertThat(result.examples()).isEqualTo(streamer.sent()).isGreaterThanOrEqualTo(100);
            assertThat(streamer.acknowledged()).isEqualTo(result.examples());
            assertThat(readAll("examples-stopped")).hasSize((int) result.examples());
        }
    }

    @Test
    void shouldRefuseWithAMessageWhenTheDataTheBrokerOrTheRegistryDoesNotFit() {
        final Properties connection = connection();
        assertThatThrownBy(() -> ExampleStreamer.open(StreamSettings.of("nope:x", "t"), connection))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown data spec 'nope:x'");
        assertThatThrownBy(() -> ExampleStreamer.open(
                        StreamSettings.of("linear:n=64,d=2", "t").withDriftAt(10), connection))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("regression data set");
        assertThatThrownBy(() -> ExampleStreamer.open(
                        StreamSettings.of("linear:n=64,d=2", "t").withCount(100), connection))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("add --loop");

        // an unreachable broker: a timeout with a message
        final Properties noBroker = connection();
        noBroker.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        final StreamSettings quick = StreamSettings.of("linear:n=64,d=2", "t").withTimeout(Duration.ofSeconds(2));
        assertThatThrownBy(() -> ExampleStreamer.open(quick, noBroker))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not answer within 2 s");

        // an unreachable registry
        final Properties noRegistry = connection();
        noRegistry.put(StreamsProperties.SCHEMA_REGISTRY_URL, "http://127.0.0.1:1");
        assertThatThrownBy(() -> ExampleStreamer.open(quick, noRegistry))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot register the examples' schema under t-value")
                .hasMessageContaining("No schema registry reachable");
    }

    @Test
    void shouldStreamFromTheCommandLineAndRefuseANegativeRateInOneLine() throws IOException {
        // when
        final CliRun streamed = CliRun.of(
                "stream",
                "--dataset",
                "linear:n=64,d=2",
                "--topic",
                "examples-cli",
                "--rate",
                "0",
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url());
        final CliRun refused = CliRun.of(
                "stream",
                "--dataset",
                "linear:n=64,d=2",
                "--topic",
                "examples-cli",
                "--rate",
                "-3",
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url());

        // then
        assertThat(streamed.code()).as(streamed.err()).isZero();
        assertThat(readAll("examples-cli"))
                .hasSize(DataSources.load("linear:n=64,d=2").train().size());
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).startsWith("paramhub: --rate must be").doesNotContain("\n");
    }
}
