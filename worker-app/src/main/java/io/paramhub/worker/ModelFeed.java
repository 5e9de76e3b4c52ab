package io.paramhub.worker;

import io.paramhub.avro.ModelShard;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/** The records of {@code model} a worker reads, as its {@link WorkerTransport} hands them out. */
interface ModelFeed extends AutoCloseable {

    /** Waits at most {@code timeout} for records, handing each to {@code sink} (tombstones are kept apart). */
    void poll(Duration timeout, Consumer<ModelShard> sink);

    /**
     * Whether this feed has read a tombstone of one of {@code job}'s shards: the aggregator writes them when the job
     * is deleted ({@code paramhub jobs delete}).
     */
    default boolean deleted(final String job) {
        return false;
    }

    /** Hands {@code sink} every record up to the end the feed had when called, within {@code timeout}. */
    void catchUp(Duration timeout, Consumer<ModelShard> sink);

    /** Where the feed stands: the offset of the next record per partition. */
    Map<TopicPartition, Long> positions();

    @Override
    void close();
}
