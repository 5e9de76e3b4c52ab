package io.paramhub.topology.aggregator;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ShardState;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The aggregator: {@code jobs} → {@code shard-jobs} (one record per shard) and, per shard,
 * {@code shard-jobs} + {@code gradients} → {@code model} and {@code dead-letters}.
 *
 * <p>Each shard's job, parameters with optimizer state, and buffered gradients live in three named
 * stores with changelogs, so a shard moves between instances with its state.
 */
public final class AggregatorTopology {

    public static final String SHARD_JOB_STORE = "shard-job-store";
    public static final String SHARD_STATE_STORE = "shard-state-store";
    public static final String PENDING_GRADIENT_STORE = "pending-gradient-store";
    static final String MODEL_SINK = "model-sink";
    static final String DEAD_LETTER_SINK = "dead-letter-sink";

    private AggregatorTopology() {
    }

    public static Topology build(final TopicCatalog topics, final SerdeFactory serdes) {
        final Topology topology = new Topology();
        final StringDeserializer keys = new StringDeserializer();
        final StringSerializer keyWriter = new StringSerializer();

        topology.addSource("jobs-source", keys, topics.jobs().valueSerde().deserializer(), topics.jobs().name());
        topology.addProcessor("job-fanout", JobFanoutProcessor::new, "jobs-source");
        topology.addSink("shard-jobs-sink", topics.shardJobs().name(), keyWriter,
            topics.shardJobs().valueSerde().serializer(), "job-fanout");

        topology.addSource("shard-jobs-source", keys, topics.shardJobs().valueSerde().deserializer(),
            topics.shardJobs().name());
        topology.addSource("gradients-source", keys, new ByteArrayDeserializer(), topics.gradients().name());
        topology.addProcessor("shard-job-starter", ShardJobProcessor::new, "shard-jobs-source");
        topology.addProcessor("gradient-aggregator",
            () -> new GradientProcessor(topics.gradients().valueSerde().deserializer()), "gradients-source");

        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(SHARD_JOB_STORE), Serdes.String(), serdes.valueSerde(JobSpec.class))
            .withCachingDisabled(), "shard-job-starter", "gradient-aggregator");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(SHARD_STATE_STORE), Serdes.String(),
                serdes.valueSerde(ShardState.class))
            .withCachingDisabled(), "shard-job-starter", "gradient-aggregator");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(PENDING_GRADIENT_STORE), Serdes.String(),
                serdes.valueSerde(GradientShard.class))
            .withCachingDisabled(), "shard-job-starter", "gradient-aggregator");

        topology.addSink(MODEL_SINK, topics.model().name(), keyWriter, topics.model().valueSerde().serializer(),
            "shard-job-starter", "gradient-aggregator");
        topology.addSink(DEAD_LETTER_SINK, topics.deadLetters().name(), keyWriter,
            topics.deadLetters().valueSerde().serializer(), "gradient-aggregator");
        return topology;
    }
}
