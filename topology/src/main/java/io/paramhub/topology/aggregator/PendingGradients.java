package io.paramhub.topology.aggregator;

import io.paramhub.avro.GradientShard;
import io.paramhub.topology.ShardKeys;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The gradients a shard holds until their clock can be applied, in a store keyed
 * {@code job/shard/clock/worker} so that one clock's gradients come out in worker order.
 */
final class PendingGradients {

    private static final StringSerializer KEY_SERIALIZER = new StringSerializer();

    private final KeyValueStore<String, GradientShard> store;

    PendingGradients(final KeyValueStore<String, GradientShard> store) {
        this.store = store;
    }

    boolean contains(final GradientShard gradient) {
        return store.get(key(gradient)) != null;
    }

    void add(final GradientShard gradient) {
        store.put(key(gradient), gradient);
    }

    /** The gradients of one clock, in ascending worker id. */
    List<GradientShard> ofClock(final String job, final int shard, final long clock) {
        return scan(ShardKeys.pendingClockPrefix(job, shard, clock));
    }

    void deleteClock(final String job, final int shard, final long clock) {
        for (final GradientShard gradient : ofClock(job, shard, clock)) {
            store.delete(key(gradient));
        }
    }

    void deleteShard(final String job, final int shard) {
        for (final GradientShard gradient : scan(job + "/" + shard + "/")) {
            store.delete(key(gradient));
        }
    }

    private List<GradientShard> scan(final String prefix) {
        final List<GradientShard> found = new ArrayList<>();
        try (KeyValueIterator<String, GradientShard> it = store.prefixScan(prefix, KEY_SERIALIZER)) {
            while (it.hasNext()) {
                final KeyValue<String, GradientShard> entry = it.next();
                found.add(entry.value);
            }
        }
        return found;
    }

    private static String key(final GradientShard gradient) {
        return ShardKeys.pendingGradient(gradient.getJob(), gradient.getShard(), gradient.getClock(),
            gradient.getWorker());
    }
}
