package io.paramhub.aggregator.http;

import org.apache.kafka.streams.state.HostInfo;

/** What a {@link ShardLocator} found: the shard in this instance's stores, the instance that hosts it, or nothing. */
sealed interface ShardLookup {

    /** The shard, read from this instance's stores. */
    record Found(ShardSnapshot snapshot) implements ShardLookup {}

    /** The shard's partition is active on another instance, reachable at {@code host}. */
    record Elsewhere(HostInfo host) implements ShardLookup {}

    /** The instance that hosts the shard's partition has no such job or shard. */
    record Absent() implements ShardLookup {}
}
