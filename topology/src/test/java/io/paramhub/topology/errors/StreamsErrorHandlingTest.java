package io.paramhub.topology.errors;

import static io.paramhub.topology.errors.DeadLetterDeserializationHandlerTest.bytes;
import static io.paramhub.topology.errors.DeadLetterDeserializationHandlerTest.concat;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.serde.WireFormat;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.aggregator.AggregatorTopology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams' error handlers as ParamHub's Streams defaults install them, driven through
 * {@link TopologyTestDriver}: poison pills on the aggregator's Avro sources, and a processor that throws.
 */
class StreamsErrorHandlingTest {

    private static final String JOB = "job-a";
    private static final String WORKER = "worker-000";
    /** The heartbeat's stamp and its record's time, which agree as an honest worker's do. */
    private static final long HEARTBEAT_TIME = 1_700_000_000_000L;

    private final String scope = "streams-error-handling-test-" + UUID.randomUUID();
    private final SerdeFactory serdes = SerdeFactory.forRegistry("mock://" + scope);
    private final TopicCatalog topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, serdes);

    @TempDir
    Path stateDir;

    @AfterEach
    void dropRegistry() {
        SchemaRegistryClients.dropScope(scope);
    }

    @Test
    void shouldBeInstalledByParamHubsStreamsDefaultsUnlessOthersAreGiven() {
        // given
        final Properties given = new Properties();
        given.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, "my.Handler");

        // when
        final Properties defaults = StreamsProperties.withDefaults("app", new Properties());
        final Properties overridden = StreamsProperties.withDefaults("app", given);

        // then
        assertThat(defaults)
                .containsEntry(
                        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                        DeadLetterDeserializationHandler.class.getName())
                .containsEntry(
                        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                        DeadLetterProcessingHandler.class.getName())
                .containsEntry(
                        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                        DeadLetterProductionHandler.class.getName());
        assertThat(overridden).containsEntry(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, "my.Handler");
    }

    @Test
    void shouldDeadLetterGarbageOnMembershipAndKeepTraining() throws IOException {
        try (TopologyTestDriver driver = aggregator()) {
            // given
            final TestInputTopic<String, byte[]> membership =
                    rawInput(driver, topics.membership().name());
            final TestOutputTopic<String, DeadLetter> deadLetters = deadLetters(driver);
            final TestOutputTopic<String, ModelShard> model = driver.createOutputTopic(
                    topics.model().name(),
                    new StringDeserializer(),
                    topics.model().valueSerde().deserializer());
            submit(driver, job());
            final byte[] garbage = "not avro at all".getBytes(StandardCharsets.UTF_8);

            // when
            membership.pipeInput(ShardKeys.worker(JOB, WORKER), garbage);
            membership.pipeInput(
                    ShardKeys.worker(JOB, WORKER),
                    topics.membership()
                            .valueSerde()
                            .serializer()
                            .serialize(topics.membership().name(), heartbeat()),
                    HEARTBEAT_TIME);
            sendGradient(driver, 0);
            sendGradient(driver, 1);

            // then
            final List<KeyValue<String, DeadLetter>> letters = deadLetters.readKeyValuesToList();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).key).isEqualTo(ShardKeys.worker(JOB, WORKER));
            final DeadLetter letter = letters.get(0).value;
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED);
            assertThat(letter.getSourceTopic()).isEqualTo(topics.membership().name());
            assertThat(letter.getPartition()).isZero();
            assertThat(letter.getOffset()).isZero();
            assertThat(bytes(letter.getOriginalBytes())).isEqualTo(garbage);
            assertThat(model.readValuesToList())
                    .extracting(ModelShard::getVersion)
                    .containsExactly(0L, 0L, 1L, 1L);
        }
    }

    @Test
    void shouldDeadLetterGarbageAndUnknownSchemasOnJobsAndStillStartTheNextJob() throws IOException {
        try (TopologyTestDriver driver = aggregator()) {
            // given
            final TestInputTopic<String, byte[]> jobs =
                    rawInput(driver, topics.jobs().name());
            final TestOutputTopic<String, DeadLetter> deadLetters = deadLetters(driver);
            final TestOutputTopic<String, ModelShard> model = driver.createOutputTopic(
                    topics.model().name(),
                    new StringDeserializer(),
                    topics.model().valueSerde().deserializer());
            final byte[] garbage = {1, 2, 3};
            final byte[] valid = topics.jobs()
                    .valueSerde()
                    .serializer()
                    .serialize(topics.jobs().name(), job());
            final byte[] unknownSchema =
                    concat(WireFormat.header(987_654), Arrays.copyOfRange(valid, WireFormat.HEADER_SIZE, valid.length));

            // when
            jobs.pipeInput(JOB, garbage);
            jobs.pipeInput(JOB, unknownSchema);
            submit(driver, job());

            // then
            final List<DeadLetter> letters = deadLetters.readValuesToList();
            assertThat(letters)
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.MALFORMED, DeadLetterReason.UNKNOWN_SCHEMA);
            assertThat(letters).extracting(DeadLetter::getOffset).containsExactly(0L, 1L);
            assertThat(letters)
                    .allSatisfy(letter -> assertThat(letter.getSourceTopic())
                            .isEqualTo(topics.jobs().name()));
            assertThat(bytes(letters.get(1).getOriginalBytes())).isEqualTo(unknownSchema);
            assertThat(model.readValuesToList())
                    .extracting(ModelShard::getShard)
                    .containsExactlyInAnyOrder(0, 1);
        }
    }

    @Test
    void shouldDeadLetterARecordAProcessorThrowsOnAsOtherAndProcessTheNext() throws IOException {
        // given
        final Topology topology = new Topology();
        topology.addSource("in-source", new StringDeserializer(), new StringDeserializer(), "in");
        topology.addProcessor("picky", Picky::new, "in-source");
        topology.addSink("out-sink", "out", new StringSerializer(), new StringSerializer(), "picky");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, properties())) {
            final TestInputTopic<String, String> in =
                    driver.createInputTopic("in", new StringSerializer(), new StringSerializer());
            final TestOutputTopic<String, String> out =
                    driver.createOutputTopic("out", new StringDeserializer(), new StringDeserializer());
            final TestOutputTopic<String, DeadLetter> deadLetters = deadLetters(driver);

            // when
            in.pipeInput("k1", "a");
            in.pipeInput("k2", "boom");
            in.pipeInput("k3", "b");

            // then
            assertThat(out.readValuesToList()).containsExactly("a", "b");
            final List<TestRecord<String, DeadLetter>> letters = deadLetters.readRecordsToList();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).key()).isEqualTo("k2");
            final DeadLetter letter = letters.get(0).value();
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.OTHER);
            assertThat(letter.getSourceTopic()).isEqualTo("in");
            assertThat(letter.getOffset()).isEqualTo(1);
            assertThat(bytes(letter.getOriginalBytes())).isEqualTo("boom".getBytes(StandardCharsets.UTF_8));
            assertThat(letter.getError()).contains("IllegalArgumentException", "boom");
        }
    }

    @Test
    void shouldDeadLetterTheInputOfAnOutputThatCannotBeSerializedAndProcessTheNext() throws IOException {
        // given
        final Topology topology = new Topology();
        topology.addSource("in-source", new StringDeserializer(), new StringDeserializer(), "in");
        topology.addSink("out-sink", "out", new StringSerializer(), new PickySerializer(), "in-source");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, properties())) {
            final TestInputTopic<String, String> in =
                    driver.createInputTopic("in", new StringSerializer(), new StringSerializer());
            final TestOutputTopic<String, String> out =
                    driver.createOutputTopic("out", new StringDeserializer(), new StringDeserializer());
            final TestOutputTopic<String, DeadLetter> deadLetters = deadLetters(driver);

            // when
            in.pipeInput("k1", "a");
            in.pipeInput("k2", "boom");
            in.pipeInput("k3", "b");

            // then
            assertThat(out.readValuesToList()).containsExactly("a", "b");
            final List<TestRecord<String, DeadLetter>> letters = deadLetters.readRecordsToList();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).key()).isEqualTo("k2");
            final DeadLetter letter = letters.get(0).value();
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.OTHER);
            assertThat(letter.getSourceTopic()).isEqualTo("in");
            assertThat(letter.getOffset()).isEqualTo(1);
            assertThat(bytes(letter.getOriginalBytes())).isEqualTo("boom".getBytes(StandardCharsets.UTF_8));
            assertThat(letter.getError()).contains("could not serialize the VALUE of a record for out", "boom");
        }
    }

    /** Serializes every string but "boom", as a serializer refusing a record too large would. */
    private static final class PickySerializer extends StringSerializer {
        @Override
        public byte[] serialize(final String topic, final String data) {
            if ("boom".equals(data)) {
                throw new SerializationException("cannot serialize boom");
            }
            return super.serialize(topic, data);
        }
    }

    /** Forwards every value but "boom", on which it throws, as a bug would. */
    private static final class Picky implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(final ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(final Record<String, String> record) {
            if ("boom".equals(record.value())) {
                throw new IllegalArgumentException("cannot handle boom");
            }
            context.forward(record);
        }
    }

    private TopologyTestDriver aggregator() throws IOException {
        return new TopologyTestDriver(AggregatorTopology.build(topics, serdes), properties());
    }

    private Properties properties() throws IOException {
        final Properties props = StreamsProperties.withDefaults("streams-error-handling-test", new Properties());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope);
        props.put(DeadLetterSettings.TOPIC, topics.deadLetters().name());
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDir, "state").toString());
        // The driver deserializes a piped record before it starts processing, and then clears its mock
        // producer, uncommitted sends included: under exactly-once a dead letter from the deserialization
        // handler would be wiped there. A real producer keeps it in the transaction (DeadLetterIT shows it).
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        return props;
    }

    private static TestInputTopic<String, byte[]> rawInput(final TopologyTestDriver driver, final String topic) {
        return driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());
    }

    private TestOutputTopic<String, DeadLetter> deadLetters(final TopologyTestDriver driver) {
        return driver.createOutputTopic(
                topics.deadLetters().name(),
                new StringDeserializer(),
                topics.deadLetters().valueSerde().deserializer());
    }

    private void submit(final TopologyTestDriver driver, final JobSpec spec) {
        driver.createInputTopic(
                        topics.jobs().name(),
                        new StringSerializer(),
                        topics.jobs().valueSerde().serializer())
                .pipeInput(spec.getJob(), spec);
    }

    private void sendGradient(final TopologyTestDriver driver, final int shard) {
        final GradientShard gradient = GradientShard.newBuilder()
                .setJob(JOB)
                .setShard(shard)
                .setWorker(WORKER)
                .setClock(0)
                .setBaseVersion(0)
                .setSampleCount(8)
                .setLoss(1.0)
                .setValues(FloatPacking.pack(new float[] {1f, 2f}))
                .build();
        rawInput(driver, topics.gradients().name())
                .pipeInput(
                        ShardKeys.shard(JOB, shard),
                        topics.gradients()
                                .valueSerde()
                                .serializer()
                                .serialize(topics.gradients().name(), gradient));
    }

    private static WorkerStatus heartbeat() {
        return WorkerStatus.newBuilder()
                .setJob(JOB)
                .setWorker(WORKER)
                .setState(WorkerState.HEARTBEAT)
                .setClock(0)
                .setTimestamp(Instant.ofEpochMilli(HEARTBEAT_TIME))
                .build();
    }

    /** Linear regression on 3 inputs (4 parameters) in 2 shards, one worker, BSP. */
    private static JobSpec job() {
        return JobSpec.newBuilder()
                .setJob(JOB)
                .setModel("linear")
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setOutputs(1)
                .setParameters(4)
                .setShards(2)
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.5)
                .setGlobalBatch(8)
                .setExpectedWorkers(1)
                .setEpochs(1)
                .setSeed(7)
                .setCreatedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }
}
