package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.topology.errors.DeadLetters;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Why a record goes to {@code dead-letters} instead of being applied. */
record Rejection(DeadLetterReason reason, String message) {

    /**
     * The {@code DeadLetter} of the record {@code context} is processing, read from {@code sourceTopic}, with
     * its {@code bytes} (null when there are none) and {@code timestamp}.
     */
    DeadLetter letter(
            final ProcessorContext<?, ?> context, final String sourceTopic, final byte[] bytes, final long timestamp) {
        final RecordMetadata metadata = context.recordMetadata().orElse(null);
        return DeadLetters.of(
                sourceTopic,
                metadata == null ? -1 : metadata.partition(),
                metadata == null ? -1 : metadata.offset(),
                reason,
                message,
                bytes,
                timestamp);
    }
}
