package io.paramhub.topology.orchestrator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.SyncMode;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TestStateDirs;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A {@link TopologyTestDriver} around the orchestrator, and a simulated BSP job whose workers have
 * given true speeds per thread (samples per compute-second), compute the share of the global batch their newest
 * command gives them, and report it in their telemetry; with {@link #fixedMs} set, each clock also costs a part that
 * does not depend on the samples, as much longer for a worker as its speed is below worker 0's.
 */
final class OrchestratorTestBed implements AutoCloseable {

    static final String JOB = "job-o";
    static final int GLOBAL_BATCH = 1200;

    final TopicCatalog topics;
    final TopologyTestDriver driver;
    final TestInputTopic<String, IterationTelemetry> telemetry;
    final TestInputTopic<String, JobSpec> jobs;
    final TestOutputTopic<String, ResourceCommand> commands;
    final TestOutputTopic<String, DeadLetter> deadLetters;
    final List<ResourceCommand> issued = new ArrayList<>();
    final OrchestratorMetrics metrics = OrchestratorMetrics.unregistered();
    private final Map<String, ResourceCommand> applied = new LinkedHashMap<>();
    private final Path stateDir = TestStateDirs.create("orchestrator-test-");
    private final String scope = "orchestrator-test-" + UUID.randomUUID();
    private long clock;
    /** Each worker's fixed compute time a clock at speed factor 1, which a slower worker takes as long longer. */
    double fixedMs;

    OrchestratorTestBed(final OrchestratorSettings settings) {
        final SerdeFactory serdes = SerdeFactory.forRegistry("mock://" + scope);
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, serdes);
        final Properties props = StreamsProperties.withDefaults("orchestrator-test", new Properties());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(OrchestratorTopology.build(topics, serdes, settings, metrics), props);
        telemetry = driver.createInputTopic(
                topics.telemetry().name(),
                new StringSerializer(),
                topics.telemetry().valueSerde().serializer());
        jobs = driver.createInputTopic(
                topics.jobs().name(),
                new StringSerializer(),
                topics.jobs().valueSerde().serializer());
        commands = driver.createOutputTopic(
                topics.commands().name(),
                new StringDeserializer(),
                topics.commands().valueSerde().deserializer());
        deadLetters = driver.createOutputTopic(
                topics.deadLetters().name(),
                new StringDeserializer(),
                topics.deadLetters().valueSerde().deserializer());
    }

    static String worker(final int index) {
        return String.format("worker-%03d", index);
    }

    void submit(final int workers) {
        jobs.pipeInput(
                JOB,
                JobSpec.newBuilder()
                        .setJob(JOB)
                        .setModel("linear")
                        .setDataset("linear:n=64,d=3")
                        .setInputs(3)
                        .setOutputs(1)
                        .setParameters(4)
                        .setShards(1)
                        .setSyncMode(SyncMode.BSP)
                        .setStaleness(0)
                        .setOptimizer(OptimizerKind.SGD)
                        .setLearningRate(0.1)
                        .setMomentum(0.0)
                        .setGlobalBatch(GLOBAL_BATCH)
                        .setExpectedWorkers(workers)
                        .setEpochs(1)
                        .setSeed(7)
                        .setCreatedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                        .build(),
                0L);
    }

    /** A hybrid job: an MLP 3-2-2 cut into {@code stages} pipeline stages, {@code workers} / stages replicas. */
    void submitHybrid(final int workers, final int stages) {
        jobs.pipeInput(
                JOB,
                JobSpec.newBuilder()
                        .setJob(JOB)
                        .setModel("mlp:2")
                        .setDataset("linear:n=64,d=3")
                        .setInputs(3)
                        .setOutputs(2)
                        .setParameters(14)
                        .setShards(2)
                        .setSyncMode(SyncMode.BSP)
                        .setStaleness(0)
                        .setOptimizer(OptimizerKind.SGD)
                        .setLearningRate(0.1)
                        .setMomentum(0.0)
                        .setGlobalBatch(GLOBAL_BATCH)
                        .setExpectedWorkers(workers)
                        .setStages(stages)
                        .setEpochs(1)
                        .setSeed(7)
                        .setCreatedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                        .build(),
                0L);
    }

    /** One BSP clock: every worker reports; then the commands it caused are applied. */
    void round(final double... speeds) {
        round(null, 0, speeds);
    }

    /** One clock with each speed multiplied by a uniform factor in [1 - noise, 1 + noise]. */
    void round(final Random random, final double noise, final double... speeds) {
        for (int w = 0; w < speeds.length; w++) {
            final String name = worker(w);
            final ResourceCommand command = applied.get(name);
            final double share = command == null ? 1.0 / speeds.length : command.getBatchShare();
            final int threads = command == null ? 1 : command.getThreads();
            final int samples = (int) Math.round(share * GLOBAL_BATCH);
            final double factor = random == null ? 1.0 : 1.0 + noise * (2 * random.nextDouble() - 1);
            final double computeMs =
                    samples / (speeds[w] * threads * factor) * 1000.0 + fixedMs * (speeds[0] / speeds[w]) / factor;
            send(name, samples, computeMs, threads, share, command == null ? -1 : command.getEpoch());
        }
        clock++;
        for (final ResourceCommand command : commands.readValuesToList()) {
            issued.add(command);
            applied.put(command.getWorker(), command);
        }
    }

    void send(
            final String name,
            final int samples,
            final double computeMs,
            final int threads,
            final double share,
            final long planVersion) {
        final long timestamp = 1_700_000_000_000L + clock * 1000;
        telemetry.pipeInput(
                ShardKeys.worker(JOB, name),
                IterationTelemetry.newBuilder()
                        .setJob(JOB)
                        .setWorker(name)
                        .setClock(clock)
                        .setSamples(samples)
                        .setComputeMs(computeMs)
                        .setWaitMs(0)
                        .setThreads(threads)
                        .setBatchShare(share)
                        .setCommandEpoch(planVersion)
                        .setLoss(1.0)
                        .setTimestamp(Instant.ofEpochMilli(timestamp))
                        .build(),
                timestamp);
    }

    long clock() {
        return clock;
    }

    JobState state() {
        final KeyValueStore<String, JobState> store = driver.getKeyValueStore(OrchestratorTopology.JOB_STATE_STORE);
        return store.get(JOB);
    }

    /** The newest command of each worker. */
    Map<String, ResourceCommand> newest() {
        return applied;
    }

    long plans() {
        return issued.stream().mapToLong(ResourceCommand::getEpoch).distinct().count();
    }

    @Override
    public void close() {
        driver.close();
        TestStateDirs.delete(stateDir);
        SchemaRegistryClients.dropScope(scope);
    }
}
