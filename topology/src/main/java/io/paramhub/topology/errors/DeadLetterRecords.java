package io.paramhub.topology.errors;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.schemas.serde.AvroSerdes;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * Builds the {@code dead-letters} records the Streams error handlers hand back to Kafka Streams: a
 * {@link DeadLetter} in the Confluent wire format, keyed by the original key bytes, sent by the task's
 * own producer (so inside its transaction under exactly-once).
 */
final class DeadLetterRecords {

    private final String topic;
    private final Serializer<DeadLetter> serializer;

    private DeadLetterRecords(final String topic, final Serializer<DeadLetter> serializer) {
        this.topic = topic;
        this.serializer = serializer;
    }

    /**
     * The records of the topic named by {@link DeadLetterSettings#TOPIC} in {@code config} (the
     * Streams config, which also holds {@code schema.registry.url}); {@code null} when none is named.
     */
    static DeadLetterRecords fromConfig(final Map<String, ?> config) {
        final Object topic = config.get(DeadLetterSettings.TOPIC);
        if (topic == null || topic.toString().isBlank()) {
            return null;
        }
        return new DeadLetterRecords(
                topic.toString().trim(),
                AvroSerdes.of(DeadLetter.class, config, false).serializer());
    }

    String topic() {
        return topic;
    }

    /** The dead letter of the source record in {@code context}: its raw {@code key} and {@code value}, and why. */
    ProducerRecord<byte[], byte[]> record(
            final ErrorHandlerContext context,
            final byte[] key,
            final byte[] value,
            final DeadLetterReason reason,
            final Exception error) {
        return record(context, key, value, reason, describe(error));
    }

    /** As the record above, with the {@code error} text given. */
    ProducerRecord<byte[], byte[]> record(
            final ErrorHandlerContext context,
            final byte[] key,
            final byte[] value,
            final DeadLetterReason reason,
            final String error) {
        final DeadLetter letter = DeadLetters.of(
                context.topic(), context.partition(), context.offset(), reason, error, value, context.timestamp());
        final Long timestamp = context.timestamp() >= 0 ? context.timestamp() : null;
        return new ProducerRecord<>(topic, null, timestamp, key, serializer.serialize(topic, letter));
    }

    /** The first {@link SchemaRegistryException} in {@code error}'s cause chain, or {@code null}. */
    static SchemaRegistryException registryCause(final Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SchemaRegistryException registryError) {
                return registryError;
            }
        }
        return null;
    }

    /** Class and message of {@code error} and of each cause, for the dead letter's {@code error}. */
    static String describe(final Throwable error) {
        final StringBuilder text = new StringBuilder();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (!text.isEmpty()) {
                text.append(": ");
            }
            text.append(cause.getClass().getSimpleName());
            if (cause.getMessage() != null) {
                text.append(' ').append(cause.getMessage());
            }
        }
        return text.toString();
    }
}
