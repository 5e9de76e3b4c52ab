package io.paramhub.topology.orchestrator;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OrchestratorJobState;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.schemas.serde.PatientDeserializer;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.placement.PlacementSettings;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The orchestrator: {@code telemetry} (key job/worker) → {@code commands} (key job/worker) and, from workers not in
 * their job, {@code dead-letters}; and
 * {@code server-telemetry} (key aggregator instance) → {@code placements}.
 *
 * <ol>
 *   <li>{@code worker-gate} ({@link WorkerGate}) sends telemetry from a worker not in its job to
 *   {@code dead-letters} ({@code UNKNOWN_WORKER}), so that no plan names it.</li>
 *   <li>{@code telemetry} is re-keyed by job and repartitioned through the internal topic
 *   {@value #REPARTITION_NAME} ({@code <application.id>-telemetry-by-job-repartition}), so that one task
 *   sees every worker of a job whatever the partition count of {@code telemetry}; a worker's records
 *   keep their order, since they all go from one partition to one partition.</li>
 *   <li>{@code planner} ({@link PlanningProcessor}) keeps each job's {@link JobState} in
 *   {@value #JOB_STATE_STORE}: per worker, speed = samples per compute-second over its last
 *   {@code window} iterations (a count-based sliding window: the sum of samples over the sum of compute
 *   seconds of those iterations), reported threads and share, planned share and threads; per job, the
 *   plan version and hysteresis state. Once per round it finds stragglers, plans ({@link Planner}) and,
 *   past the hysteresis, emits one {@code ResourceCommand} per worker with the job's next plan version
 *   (its {@code epoch} field).</li>
 *   <li>{@code jobs} feeds the global store {@value #JOB_SPEC_STORE}, which tells the planner how many
 *   workers to wait for before the first plan; a tombstone there deletes the job, and the planner then drops
 *   its {@link JobState} and meters.</li>
 *   <li>{@code server-telemetry} (key: aggregator instance) → {@code placer} ({@link PlacementProcessor}) →
 *   {@code placements}: slow aggregator instances flagged, versioned placements of shard partitions on
 *   instances (the last one in {@value #PLACEMENT_STORE}), a scaling recommendation.</li>
 * </ol>
 *
 * <p>Every processor, store and internal topic is named; {@value #JOB_STATE_STORE} and {@value #PLACEMENT_STORE}
 * are in memory with a changelog and no cache (a restarted orchestrator reads them back from the changelog), and
 * the job state is Avro ({@code OrchestratorJobState}, see {@link JobStateSerde}).
 */
public final class OrchestratorTopology {

    public static final String JOB_STATE_STORE = "orchestrator-job-store";
    public static final String JOB_SPEC_STORE = "orchestrator-job-spec-store";
    public static final String PLACEMENT_STORE = "orchestrator-placement-store";
    public static final String REPARTITION_NAME = "telemetry-by-job";
    static final String PLANNER = "planner";
    static final String WORKER_GATE = "worker-gate";
    static final String PLACER = "placer";

    private OrchestratorTopology() {}

    public static Topology build(
            final TopicCatalog topics, final SerdeFactory serdes, final OrchestratorSettings settings) {
        return build(topics, serdes, settings, OrchestratorMetrics.unregistered());
    }

    /** As {@link #build(TopicCatalog, SerdeFactory, OrchestratorSettings)}, counting commands in {@code metrics}. */
    public static Topology build(
            final TopicCatalog topics,
            final SerdeFactory serdes,
            final OrchestratorSettings settings,
            final OrchestratorMetrics metrics) {
        final PlacementSettings placement = settings.issuesCommands()
                ? PlacementSettings.defaults()
                : PlacementSettings.defaults().observeOnly();
        return build(topics, serdes, settings, placement, metrics);
    }

    /** As {@link #build(TopicCatalog, SerdeFactory, OrchestratorSettings, OrchestratorMetrics)}, placing shards with {@code placement}. */
    public static Topology build(
            final TopicCatalog topics,
            final SerdeFactory serdes,
            final OrchestratorSettings settings,
            final PlacementSettings placement,
            final OrchestratorMetrics metrics) {
        final StreamsBuilder builder = new StreamsBuilder();
        // in memory with its changelog, as the placement store below: a few kilobytes a job, written on every
        // telemetry record; RocksDB would flush its memtable to a new file at every exactly-once commit
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(JOB_STATE_STORE),
                        Serdes.String(),
                        new JobStateSerde(serdes.valueSerde(OrchestratorJobState.class)))
                .withCachingDisabled());

        final Map<String, KStream<String, WorkerGate.Gated>> gated = builder.stream(
                        topics.telemetry().name(),
                        Consumed.with(Serdes.String(), topics.telemetry().valueSerde())
                                .withName("telemetry-source"))
                .process(() -> new WorkerGate(topics.telemetry(), metrics), Named.as(WORKER_GATE))
                .split(Named.as(WORKER_GATE + "-"))
                .branch((key, value) -> value.refused(), Branched.as("refused"))
                .defaultBranch(Branched.as("admitted"));
        gated.get(WORKER_GATE + "-refused")
                .mapValues(WorkerGate.Gated::letter, Named.as("telemetry-dead-letter"))
                .to(
                        topics.deadLetters().name(),
                        Produced.with(Serdes.String(), topics.deadLetters().valueSerde())
                                .withName("telemetry-dead-letters-sink"));
        gated.get(WORKER_GATE + "-admitted")
                .mapValues(WorkerGate.Gated::telemetry, Named.as("admitted-telemetry"))
                .selectKey((key, telemetry) -> telemetry == null ? key : telemetry.getJob(), Named.as("key-by-job"))
                .repartition(Repartitioned.<String, IterationTelemetry>as(REPARTITION_NAME)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(topics.telemetry().valueSerde()))
                .process(() -> new PlanningProcessor(settings, metrics), Named.as(PLANNER), JOB_STATE_STORE)
                .peek((key, command) -> metrics.issued(command), Named.as("commands-counter"))
                .to(
                        topics.commands().name(),
                        Produced.with(Serdes.String(), topics.commands().valueSerde())
                                .withName("commands-sink"));

        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(PLACEMENT_STORE),
                        Serdes.String(),
                        serdes.valueSerde(ShardPlacement.class))
                .withCachingDisabled());
        builder.stream(
                        topics.serverTelemetry().name(),
                        Consumed.with(Serdes.String(), topics.serverTelemetry().valueSerde())
                                .withName("server-telemetry-source"))
                .process(() -> new PlacementProcessor(placement, metrics), Named.as(PLACER), PLACEMENT_STORE)
                .to(
                        topics.placements().name(),
                        Produced.with(Serdes.String(), topics.placements().valueSerde())
                                .withName("placements-sink"));

        final Topology topology = builder.build();
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(JOB_SPEC_STORE),
                                Serdes.String(),
                                serdes.valueSerde(JobSpec.class))
                        .withLoggingDisabled()
                        .withCachingDisabled(),
                "jobs-source",
                new StringDeserializer(),
                // a global thread cannot be replaced: it waits out a registry outage rather than take the app down
                new PatientDeserializer<>(topics.jobs().valueSerde().deserializer()),
                topics.jobs().name(),
                "job-spec-loader",
                JobSpecLoader::new);
        return topology;
    }
}
