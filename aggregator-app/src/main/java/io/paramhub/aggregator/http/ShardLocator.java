package io.paramhub.aggregator.http;

/**
 * Finds one shard of a job from this instance's point of view: in its own stores, on another
 * instance, or nowhere. Blocking: call it on a worker thread, never on the event loop.
 */
@FunctionalInterface
interface ShardLocator {

    /**
     * Where shard {@code shard} of {@code job} is.
     *
     * @throws ModelUnavailableException when Kafka Streams is not RUNNING or the store cannot be queried
     */
    ShardLookup locate(String job, int shard);
}
