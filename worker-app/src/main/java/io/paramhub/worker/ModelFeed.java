package io.paramhub.worker;

import io.paramhub.avro.ModelShard;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/** The records of {@code model} a worker reads, as its {@link WorkerTransport} hands them out. */
interface ModelFeed extends AutoCloseable {

    /** Waits at most {@code timeout} for records, handing each to {@code sink}. */
    void poll(Duration timeout, Consumer<ModelShard> sink);

    /** Hands {@code sink} every record up to the end the feed had when called, within {@code timeout}. */
    void catchUp(Duration timeout, Consumer<ModelShard> sink);

    /** Where the feed stands: the offset of the next record per partition. */
    Map<TopicPartition, Long> positions();

    @Override
    void close();
}
