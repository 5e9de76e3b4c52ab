package io.paramhub.topology.client;

import org.apache.kafka.common.errors.RecordDeserializationException;
import org.slf4j.LoggerFactory;

/**
 * What a {@link TopicReader} does with a record that does not deserialize before it skips it: log it
 * ({@link #LOG}), or also set it aside on {@code dead-letters}, as a worker does ({@code KafkaWorkerTransport}).
 */
@FunctionalInterface
public interface UndecodableRecordHandler {

    /** Logs the partition, offset and error at WARN. */
    UndecodableRecordHandler LOG = error -> LoggerFactory.getLogger(TopicReader.class)
            .warn(
                    "skipped the record of {} at offset {}, which does not deserialize: {}",
                    error.topicPartition(),
                    error.offset(),
                    error.getMessage());

    /** Called once for each record that does not deserialize; the reader then skips it. */
    void accept(RecordDeserializationException error);
}
