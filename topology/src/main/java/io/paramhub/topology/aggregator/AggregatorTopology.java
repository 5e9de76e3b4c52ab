package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardState;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The aggregator, in two sub-topologies:
 * <ol>
 *   <li>{@code jobs} + {@code membership} + {@code commands} → {@code shard-jobs} +
 *   {@code shard-membership} (one record per shard) + {@code shard-commands} (shard 0), and invalid jobs
 *   and membership records stamped far from the broker's time → {@code dead-letters}
 *   ({@link ControlFanout});</li>
 *   <li>per shard, {@code shard-jobs} + {@code shard-membership} + {@code shard-commands} +
 *   {@code gradients} → {@code model}, {@code dead-letters} and {@code server-telemetry} (one
 *   {@link ShardTask} per task, {@link ShardEngine}).</li>
 * </ol>
 * Each shard's job, progress, live workers and (every {@value #DEFAULT_SNAPSHOT_CLOCKS} BSP clocks by
 * default) parameters with optimizer state live in named in-memory stores with changelogs; the
 * gradients waiting for their clock, and those applied since a BSP shard's snapshot, are read again from
 * {@code gradients} when a task starts on stored state. So a shard moves between instances with its
 * state, and a BSP round writes its model and one small progress record per shard. Shard 0 of a topic-mode
 * job also keeps the job's lineage (the data-topic offsets trained on), which rides on its {@code model}
 * records and comes back from the newest one, and the instance keeps each version's in a {@link LineageHistory}.
 */
public final class AggregatorTopology {

    public static final String JOB_SPEC_STORE = "job-spec-store";
    public static final String SHARD_JOB_STORE = "shard-job-store";
    public static final String SHARD_STATE_STORE = "shard-state-store";
    public static final String SHARD_MEMBER_STORE = "shard-member-store";
    public static final String SHARD_SNAPSHOT_STORE = "shard-snapshot-store";
    /**
     * The newest version of each shard, for the HTTP endpoints (interactive queries) only: in memory, no
     * changelog; a task that starts fills it from its restored shards.
     */
    public static final String SHARD_MODEL_STORE = "shard-model-store";

    /**
     * The value type of each store, by name. Each store's serde writes under its changelog topic's subject,
     * {@code <application.id>-<store>-changelog-value}, the model store's too although it keeps no changelog.
     */
    public static final Map<String, Class<? extends SpecificRecord>> STORE_VALUES = Map.of(
            JOB_SPEC_STORE, JobSpec.class,
            SHARD_JOB_STORE, JobSpec.class,
            SHARD_STATE_STORE, ShardState.class,
            SHARD_MEMBER_STORE, ShardMembers.class,
            SHARD_SNAPSHOT_STORE, ShardState.class,
            SHARD_MODEL_STORE, ModelShard.class);
    /**
     * Streams setting: a BSP shard's parameters and optimizer state are stored every this many clocks (and
     * at version 0 and when its workers have all left); in between, each clock stores a small progress
     * record naming its gradients, which a restore reads again from {@code gradients} and applies.
     */
    public static final String SNAPSHOT_CLOCKS_CONFIG = "paramhub.aggregator.snapshot.clocks";

    public static final int DEFAULT_SNAPSHOT_CLOCKS = 50;

    /**
     * Streams setting: the most memory, in bytes, the live jobs together may be estimated to need ({@link JobMemory}:
     * parameters, optimizer state, buffered gradients, store copies, a staged job's activations); a job over it,
     * alone or with the jobs already admitted ({@link MemoryAdmission}), is dead-lettered as {@code INVALID_JOB} with
     * the figures. By default half of the JVM's maximum heap.
     */
    public static final String JOB_MEMORY_BUDGET_CONFIG = "paramhub.aggregator.job.memory.budget.bytes";

    /**
     * Streams setting: how far, in ms, the timestamp a worker puts in a {@code membership} record may be from
     * the record's (the broker's) time before the record goes to {@code dead-letters} as {@code CLOCK_SKEW}.
     */
    public static final String MEMBERSHIP_CLOCK_TOLERANCE_CONFIG = "paramhub.aggregator.membership.clock.tolerance.ms";

    /**
     * 30 s: far beyond the skew of clocks kept by NTP and the time a heartbeat normally spends in a producer's
     * buffer, and within a few of the default 10 s session timeouts.
     */
    public static final long DEFAULT_MEMBERSHIP_CLOCK_TOLERANCE_MS = 30_000;

    static final String MODEL_SINK = "model-sink";
    static final String DEAD_LETTER_SINK = "dead-letter-sink";
    static final String SERVER_TELEMETRY_SINK = "server-telemetry-sink";
    static final String SHARD_JOBS_SINK = "shard-jobs-sink";
    static final String SHARD_MEMBERSHIP_SINK = "shard-membership-sink";
    static final String SHARD_COMMANDS_SINK = "shard-commands-sink";
    /** The fan-out's own sink to {@code dead-letters}: one shared with the shard tasks would join the two sub-topologies. */
    static final String FANOUT_DEAD_LETTER_SINK = "fanout-dead-letter-sink";

    static final String SHARD_PROCESSOR = "shard-task";

    private AggregatorTopology() {}

    public static Topology build(final TopicCatalog topics, final SerdeFactory serdes) {
        return build(topics, serdes, AggregatorMetrics.unregistered());
    }

    public static Topology build(
            final TopicCatalog topics, final SerdeFactory serdes, final AggregatorMetrics metrics) {
        return build(topics, serdes, metrics, new LineageHistory());
    }

    /** As {@link #build(TopicCatalog, SerdeFactory, AggregatorMetrics)}, keeping shard-0 lineage in {@code history}. */
    public static Topology build(
            final TopicCatalog topics,
            final SerdeFactory serdes,
            final AggregatorMetrics metrics,
            final LineageHistory history) {
        final Topology topology = new Topology();
        final StringDeserializer keys = new StringDeserializer();
        final StringSerializer keyWriter = new StringSerializer();

        topology.addSource(
                "jobs-source",
                keys,
                topics.jobs().valueSerde().deserializer(),
                topics.jobs().name());
        topology.addSource(
                "membership-source",
                keys,
                topics.membership().valueSerde().deserializer(),
                topics.membership().name());
        topology.addProcessor("job-fanout", () -> new ControlFanout.Jobs(topics.jobs(), metrics), "jobs-source");
        topology.addSource(
                "commands-source",
                keys,
                topics.commands().valueSerde().deserializer(),
                topics.commands().name());
        topology.addProcessor(
                "membership-fanout",
                () -> new ControlFanout.Members(topics.membership(), metrics),
                "membership-source");
        topology.addProcessor(
                "commands-fanout", () -> new ControlFanout.Commands(topics.commands(), metrics), "commands-source");
        topology.addStateStore(store(JOB_SPEC_STORE, serdes), "job-fanout", "membership-fanout", "commands-fanout");
        topology.addSink(
                SHARD_JOBS_SINK,
                topics.shardJobs().name(),
                keyWriter,
                topics.shardJobs().valueSerde().serializer(),
                "job-fanout");
        topology.addSink(
                SHARD_MEMBERSHIP_SINK,
                topics.shardMembership().name(),
                keyWriter,
                topics.shardMembership().valueSerde().serializer(),
                "membership-fanout");
        topology.addSink(
                SHARD_COMMANDS_SINK,
                topics.shardCommands().name(),
                keyWriter,
                topics.shardCommands().valueSerde().serializer(),
                "commands-fanout");
        topology.addSink(
                FANOUT_DEAD_LETTER_SINK,
                topics.deadLetters().name(),
                keyWriter,
                topics.deadLetters().valueSerde().serializer(),
                "job-fanout",
                "membership-fanout",
                "commands-fanout");

        topology.addSource(
                "shard-jobs-source",
                keys,
                topics.shardJobs().valueSerde().deserializer(),
                topics.shardJobs().name());
        topology.addSource(
                "shard-membership-source",
                keys,
                topics.shardMembership().valueSerde().deserializer(),
                topics.shardMembership().name());
        topology.addSource(
                "shard-commands-source",
                keys,
                topics.shardCommands().valueSerde().deserializer(),
                topics.shardCommands().name());
        topology.addSource(
                "gradients-source",
                keys,
                new ByteArrayDeserializer(),
                topics.gradients().name());
        topology.addProcessor(
                SHARD_PROCESSOR,
                () -> new ShardTask(
                        topics.gradients().name(),
                        topics.shardJobs().name(),
                        topics.gradients().valueSerde().deserializer(),
                        topics.model().name(),
                        topics.model().valueSerde().deserializer(),
                        metrics,
                        history,
                        SlowServerEmulation.timers()),
                "shard-jobs-source",
                "shard-membership-source",
                "shard-commands-source",
                "gradients-source");
        topology.addStateStore(inMemory(SHARD_JOB_STORE, serdes), SHARD_PROCESSOR);
        topology.addStateStore(inMemory(SHARD_STATE_STORE, serdes), SHARD_PROCESSOR);
        topology.addStateStore(inMemory(SHARD_MEMBER_STORE, serdes), SHARD_PROCESSOR);
        topology.addStateStore(inMemory(SHARD_SNAPSHOT_STORE, serdes), SHARD_PROCESSOR);
        topology.addStateStore(inMemory(SHARD_MODEL_STORE, serdes).withLoggingDisabled(), SHARD_PROCESSOR);

        topology.addSink(
                MODEL_SINK,
                topics.model().name(),
                keyWriter,
                topics.model().valueSerde().serializer(),
                SHARD_PROCESSOR);
        topology.addSink(
                SERVER_TELEMETRY_SINK,
                topics.serverTelemetry().name(),
                keyWriter,
                topics.serverTelemetry().valueSerde().serializer(),
                SHARD_PROCESSOR);
        topology.addSink(
                DEAD_LETTER_SINK,
                topics.deadLetters().name(),
                keyWriter,
                topics.deadLetters().valueSerde().serializer(),
                SHARD_PROCESSOR);
        return topology;
    }

    /**
     * {@link #SNAPSHOT_CLOCKS_CONFIG} from the app's settings, or its default; at least 1. Throws Kafka's
     * {@code ConfigException} naming the setting otherwise, so that an app can refuse it before it starts.
     */
    public static int snapshotEveryClocks(final Map<?, ?> appConfigs) {
        final Object value = appConfigs.get(SNAPSHOT_CLOCKS_CONFIG);
        if (value == null) {
            return DEFAULT_SNAPSHOT_CLOCKS;
        }
        final int clocks;
        try {
            clocks = Integer.parseInt(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(SNAPSHOT_CLOCKS_CONFIG, value, "must be a whole number of clocks");
        }
        if (clocks < 1) {
            throw new ConfigException(SNAPSHOT_CLOCKS_CONFIG, value, "must be at least 1");
        }
        return clocks;
    }

    /**
     * {@link #JOB_MEMORY_BUDGET_CONFIG} from the app's settings, or half of this JVM's maximum heap; at least 1.
     * Throws Kafka's {@code ConfigException} naming the setting otherwise.
     */
    public static long jobMemoryBudget(final Map<?, ?> appConfigs) {
        return JobMemory.budget(appConfigs, Runtime.getRuntime().maxMemory());
    }

    /**
     * {@link #MEMBERSHIP_CLOCK_TOLERANCE_CONFIG} from the app's settings, or its default; at least 0. Throws
     * Kafka's {@code ConfigException} naming the setting otherwise.
     */
    public static long membershipClockToleranceMs(final Map<?, ?> appConfigs) {
        final Object value = appConfigs.get(MEMBERSHIP_CLOCK_TOLERANCE_CONFIG);
        if (value == null) {
            return DEFAULT_MEMBERSHIP_CLOCK_TOLERANCE_MS;
        }
        final long toleranceMs;
        try {
            toleranceMs = Long.parseLong(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(MEMBERSHIP_CLOCK_TOLERANCE_CONFIG, value, "must be a whole number of ms");
        }
        if (toleranceMs < 0) {
            throw new ConfigException(MEMBERSHIP_CLOCK_TOLERANCE_CONFIG, value, "must be at least 0");
        }
        return toleranceMs;
    }

    private static StoreBuilder<?> store(final String name, final SerdeFactory serdes) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values(name, serdes))
                .withCachingDisabled();
    }

    /**
     * A shard store: in memory with a changelog. The shard task keeps its shards decoded in memory
     * anyway; RocksDB would only add a second copy written on every version.
     */
    private static StoreBuilder<?> inMemory(final String name, final SerdeFactory serdes) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), values(name, serdes))
                .withCachingDisabled();
    }

    /** The serde of a store's values, of the type {@link #STORE_VALUES} gives the store. */
    private static Serde<? extends SpecificRecord> values(final String name, final SerdeFactory serdes) {
        return serdes.valueSerde(STORE_VALUES.get(name));
    }
}
