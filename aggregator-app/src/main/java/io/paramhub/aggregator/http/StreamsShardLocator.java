package io.paramhub.aggregator.http;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.aggregator.AggregatorTopology;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Locates a shard with Kafka Streams interactive queries: {@code queryMetadataForKey} gives the
 * partition of key {@code job/shard} and its active host; this instance reads {@code shard-job-store}
 * and {@code shard-model-store} for that partition when it runs the partition's active task (Streams
 * opens no other partition here), and otherwise points at the active host, as published through
 * {@code application.server}.
 */
final class StreamsShardLocator implements ShardLocator {

    private static final Serializer<String> KEYS = new StringSerializer();

    private final KafkaStreams streams;

    StreamsShardLocator(final KafkaStreams streams) {
        this.streams = streams;
    }

    @Override
    public ShardLookup locate(final String job, final int shard) {
        final KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING) {
            throw new ModelUnavailableException("Kafka Streams is " + state + ", not RUNNING");
        }
        final String key = ShardKeys.shard(job, shard);
        try {
            final KeyQueryMetadata where = streams.queryMetadataForKey(AggregatorTopology.SHARD_JOB_STORE, key, KEYS);
            if (where == null || where.partition() < 0) {
                throw new ModelUnavailableException("no partition metadata yet for key " + key);
            }
            return read(key, where);
        } catch (final InvalidStateStoreException | IllegalStateException e) {
            throw new ModelUnavailableException("stores not queryable for key " + key + ": " + e.getMessage(), e);
        }
    }

    private ShardLookup read(final String key, final KeyQueryMetadata where) {
        try {
            final ReadOnlyKeyValueStore<String, JobSpec> jobs = store(AggregatorTopology.SHARD_JOB_STORE, where);
            final ReadOnlyKeyValueStore<String, ModelShard> models = store(AggregatorTopology.SHARD_MODEL_STORE, where);
            final JobSpec spec = jobs.get(key);
            final ModelShard state = models.get(key);
            return spec == null || state == null
                    ? new ShardLookup.Absent()
                    : new ShardLookup.Found(ShardSnapshot.of(spec, state));
        } catch (final InvalidStateStorePartitionException notHere) {
            if (where.activeHost() == null || where.activeHost().equals(HostInfo.unavailable())) {
                throw new ModelUnavailableException(
                        "no instance is active for partition " + where.partition() + " of key " + key, notHere);
            }
            return new ShardLookup.Elsewhere(where.activeHost());
        }
    }

    private <V> ReadOnlyKeyValueStore<String, V> store(final String name, final KeyQueryMetadata where) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore())
                .withPartition(where.partition()));
    }
}
