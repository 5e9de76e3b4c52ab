package io.paramhub.topology.errors;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;

/** An {@link ErrorHandlerContext} with fixed values, as Kafka Streams hands one to an error handler. */
record HandlerContext(
        String topic,
        int partition,
        long offset,
        String processorNodeId,
        TaskId taskId,
        long timestamp,
        byte[] sourceRawKey,
        byte[] sourceRawValue)
        implements ErrorHandlerContext {

    static HandlerContext of(
            final String topic, final int partition, final long offset, final byte[] key, final byte[] value) {
        return new HandlerContext(
                topic, partition, offset, topic + "-source", new TaskId(0, partition), 1_700_000_000_000L, key, value);
    }

    @Override
    public Headers headers() {
        return new RecordHeaders();
    }
}
