package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TestStateDirs;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** A {@link TopologyTestDriver} around the aggregator topology, with an in-memory schema registry. */
final class AggregatorTestBed implements AutoCloseable {

    final TopicCatalog topics;
    final TopologyTestDriver driver;
    final TestInputTopic<String, JobSpec> jobs;
    final TestInputTopic<String, byte[]> gradients;
    final TestInputTopic<String, WorkerStatus> membership;
    final TestInputTopic<String, ResourceCommand> commands;
    final AggregatorMetrics metrics = AggregatorMetrics.unregistered();
    final LineageHistory lineage = new LineageHistory();
    final TestOutputTopic<String, ModelShard> model;
    final TestOutputTopic<String, DeadLetter> deadLetters;
    private final Path stateDir = TestStateDirs.create("aggregator-test-");
    private final String scope = "aggregator-test-" + UUID.randomUUID();
    /** The in-memory registry's URL; the aggregator's serdes register schemas unless the settings say otherwise. */
    final String registryUrl = SchemaRegistryConfig.MOCK_URL_PREFIX + scope;

    AggregatorTestBed() {
        this(new Properties());
    }

    /** A test bed whose aggregator also has the Streams settings {@code given}. */
    AggregatorTestBed(final Properties given) {
        final Map<String, Object> registry = new HashMap<>(Map.of("schema.registry.url", registryUrl));
        if (given.containsKey(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS)) {
            registry.put(
                    SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, given.get(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS));
        }
        final SerdeFactory serdes = new SerdeFactory(registry);
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, serdes);
        final Properties props = StreamsProperties.withDefaults("aggregator-test", new Properties());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.putAll(given);
        driver = new TopologyTestDriver(AggregatorTopology.build(topics, serdes, metrics, lineage), props);
        jobs = driver.createInputTopic(
                topics.jobs().name(),
                new StringSerializer(),
                topics.jobs().valueSerde().serializer());
        gradients =
                driver.createInputTopic(topics.gradients().name(), new StringSerializer(), new ByteArraySerializer());
        membership = driver.createInputTopic(
                topics.membership().name(),
                new StringSerializer(),
                topics.membership().valueSerde().serializer());
        commands = driver.createInputTopic(
                topics.commands().name(),
                new StringSerializer(),
                topics.commands().valueSerde().serializer());
        model = driver.createOutputTopic(
                topics.model().name(),
                new StringDeserializer(),
                topics.model().valueSerde().deserializer());
        deadLetters = driver.createOutputTopic(
                topics.deadLetters().name(),
                new StringDeserializer(),
                topics.deadLetters().valueSerde().deserializer());
    }

    /** Linear regression on 3 inputs (4 parameters) in 2 shards, plain SGD, BSP over {@code workers}. */
    static JobSpec linearJob(final String name, final int workers) {
        return JobSpec.newBuilder()
                .setJob(name)
                .setModel("linear")
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setOutputs(1)
                .setParameters(4)
                .setShards(2)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.5)
                .setMomentum(0.0)
                .setGlobalBatch(8)
                .setExpectedWorkers(workers)
                .setEpochs(1)
                .setSeed(7)
                .setCreatedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }

    void submit(final JobSpec spec) {
        jobs.pipeInput(spec.getJob(), spec);
    }

    static GradientShard gradient(
            final String job,
            final int shard,
            final String worker,
            final long clock,
            final int samples,
            final float... values) {
        return GradientShard.newBuilder()
                .setJob(job)
                .setShard(shard)
                .setWorker(worker)
                .setClock(clock)
                .setBaseVersion(clock)
                .setSampleCount(samples)
                .setLoss(1.0)
                .setValues(FloatPacking.pack(values))
                .build();
    }

    void send(final GradientShard gradient) {
        gradients.pipeInput(
                ShardKeys.shard(gradient.getJob(), gradient.getShard()),
                topics.gradients()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.gradients().name(), gradient));
    }

    void send(final GradientShard gradient, final long timestamp) {
        gradients.pipeInput(
                ShardKeys.shard(gradient.getJob(), gradient.getShard()),
                topics.gradients()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.gradients().name(), gradient),
                timestamp);
    }

    void member(final String job, final String worker, final WorkerState state, final long timestamp) {
        membership.pipeInput(
                ShardKeys.worker(job, worker),
                WorkerStatus.newBuilder()
                        .setJob(job)
                        .setWorker(worker)
                        .setState(state)
                        .setClock(0)
                        .setTimestamp(Instant.ofEpochMilli(timestamp))
                        .build(),
                timestamp);
    }

    /** A membership record the worker stamped {@code stamped} and the broker {@code recordTime}. */
    void member(
            final String job, final String worker, final WorkerState state, final long stamped, final long recordTime) {
        membership.pipeInput(
                ShardKeys.worker(job, worker),
                WorkerStatus.newBuilder()
                        .setJob(job)
                        .setWorker(worker)
                        .setState(state)
                        .setClock(0)
                        .setTimestamp(Instant.ofEpochMilli(stamped))
                        .build(),
                recordTime);
    }

    /** A LEFT after {@code clocks} clocks, {@code finished} or stopped, at {@code timestamp}. */
    void left(final String job, final String worker, final long clocks, final boolean finished, final long timestamp) {
        membership.pipeInput(
                ShardKeys.worker(job, worker),
                WorkerStatus.newBuilder()
                        .setJob(job)
                        .setWorker(worker)
                        .setState(WorkerState.LEFT)
                        .setClock(clocks)
                        .setFinished(finished)
                        .setTimestamp(Instant.ofEpochMilli(timestamp))
                        .build(),
                timestamp);
    }

    void sendRaw(final String key, final byte[] value) {
        gradients.pipeInput(key, value);
    }

    List<ModelShard> models() {
        return model.readValuesToList();
    }

    @Override
    public void close() {
        driver.close();
        TestStateDirs.delete(stateDir);
        SchemaRegistryClients.dropScope(scope);
    }
}
