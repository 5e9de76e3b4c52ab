package io.paramhub.topology.aggregator;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The aggregator, in two sub-topologies:
 * <ol>
 *   <li>{@code jobs} + {@code membership} + {@code commands} → {@code shard-jobs} +
 *   {@code shard-membership} (one record per shard) + {@code shard-commands} (shard 0)
 *   ({@link ControlFanout});</li>
 *   <li>per shard, {@code shard-jobs} + {@code shard-membership} + {@code shard-commands} +
 *   {@code gradients} → {@code model} and {@code dead-letters} ({@link ShardProcessors},
 *   {@link ShardEngine}).</li>
 * </ol>
 * Each shard's job, parameters with optimizer state, live workers and buffered gradients live in
 * named stores with changelogs, so a shard moves between instances with its state.
 */
public final class AggregatorTopology {

    public static final String JOB_SPEC_STORE = "job-spec-store";
    public static final String SHARD_JOB_STORE = "shard-job-store";
    public static final String SHARD_STATE_STORE = "shard-state-store";
    public static final String SHARD_MEMBER_STORE = "shard-member-store";
    public static final String PENDING_GRADIENT_STORE = "pending-gradient-store";
    static final String MODEL_SINK = "model-sink";
    static final String DEAD_LETTER_SINK = "dead-letter-sink";
    private static final String[] SHARD_PROCESSORS =
        {"shard-job-starter", "member-tracker", "gradient-aggregator", "plan-keeper"};

    private AggregatorTopology() {
    }

    public static Topology build(final TopicCatalog topics, final SerdeFactory serdes) {
        return build(topics, serdes, AggregatorMetrics.unregistered());
    }

    public static Topology build(final TopicCatalog topics, final SerdeFactory serdes, final AggregatorMetrics metrics) {
        final Topology topology = new Topology();
        final StringDeserializer keys = new StringDeserializer();
        final StringSerializer keyWriter = new StringSerializer();

        topology.addSource("jobs-source", keys, topics.jobs().valueSerde().deserializer(), topics.jobs().name());
        topology.addSource("membership-source", keys, topics.membership().valueSerde().deserializer(),
            topics.membership().name());
        topology.addProcessor("job-fanout", ControlFanout.Jobs::new, "jobs-source");
        topology.addSource("commands-source", keys, topics.commands().valueSerde().deserializer(),
            topics.commands().name());
        topology.addProcessor("membership-fanout", ControlFanout.Members::new, "membership-source");
        topology.addProcessor("commands-fanout", ControlFanout.Commands::new, "commands-source");
        topology.addStateStore(store(JOB_SPEC_STORE, serdes.valueSerde(JobSpec.class)), "job-fanout",
            "membership-fanout", "commands-fanout");
        topology.addSink("shard-jobs-sink", topics.shardJobs().name(), keyWriter,
            topics.shardJobs().valueSerde().serializer(), "job-fanout");
        topology.addSink("shard-membership-sink", topics.shardMembership().name(), keyWriter,
            topics.shardMembership().valueSerde().serializer(), "membership-fanout");
        topology.addSink("shard-commands-sink", topics.shardCommands().name(), keyWriter,
            topics.shardCommands().valueSerde().serializer(), "commands-fanout");

        topology.addSource("shard-jobs-source", keys, topics.shardJobs().valueSerde().deserializer(),
            topics.shardJobs().name());
        topology.addSource("shard-membership-source", keys, topics.shardMembership().valueSerde().deserializer(),
            topics.shardMembership().name());
        topology.addSource("shard-commands-source", keys, topics.shardCommands().valueSerde().deserializer(),
            topics.shardCommands().name());
        topology.addSource("gradients-source", keys, new ByteArrayDeserializer(), topics.gradients().name());
        topology.addProcessor(SHARD_PROCESSORS[0],
            () -> new ShardProcessors.Control<JobSpec>(metrics, ShardEngine::startJob), "shard-jobs-source");
        topology.addProcessor(SHARD_PROCESSORS[1],
            () -> new ShardProcessors.Control<WorkerStatus>(metrics, ShardEngine::memberEvent),
            "shard-membership-source");
        topology.addProcessor(SHARD_PROCESSORS[3],
            () -> new ShardProcessors.Control<ResourceCommand>(metrics, ShardEngine::planEvent),
            "shard-commands-source");
        topology.addProcessor(SHARD_PROCESSORS[2], () -> new ShardProcessors.GradientAggregator(
            topics.gradients().valueSerde().deserializer(), metrics), "gradients-source");
        topology.addStateStore(store(SHARD_JOB_STORE, serdes.valueSerde(JobSpec.class)), SHARD_PROCESSORS);
        topology.addStateStore(store(SHARD_STATE_STORE, serdes.valueSerde(ShardState.class)), SHARD_PROCESSORS);
        topology.addStateStore(store(SHARD_MEMBER_STORE, serdes.valueSerde(ShardMembers.class)), SHARD_PROCESSORS);
        topology.addStateStore(store(PENDING_GRADIENT_STORE, serdes.valueSerde(GradientShard.class)), SHARD_PROCESSORS);

        topology.addSink(MODEL_SINK, topics.model().name(), keyWriter, topics.model().valueSerde().serializer(),
            SHARD_PROCESSORS);
        topology.addSink(DEAD_LETTER_SINK, topics.deadLetters().name(), keyWriter,
            topics.deadLetters().valueSerde().serializer(), SHARD_PROCESSORS[2]);
        return topology;
    }

    private static <V> StoreBuilder<KeyValueStore<String, V>> store(final String name, final Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values)
            .withCachingDisabled();
    }
}
