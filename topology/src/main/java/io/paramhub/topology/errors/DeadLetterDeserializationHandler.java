package io.paramhub.topology.errors;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.schemas.registry.SchemaRegistryException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets aside a record that Kafka Streams cannot deserialize (a poison pill on {@code jobs},
 * {@code membership}, {@code shard-jobs} or {@code shard-membership}): logs it and resumes, handing Streams
 * a {@code DeadLetter} for the topic named by {@link DeadLetterSettings#TOPIC}, with reason
 * {@code UNKNOWN_SCHEMA} when the registry answered 404 for its schema id and {@code MALFORMED} otherwise,
 * the original key as key and the original value as {@code originalBytes}. Streams writes it with the
 * task's producer, so under exactly-once it is committed with the task's progress.
 *
 * <p>A registry that cannot be reached is not a poison pill: the handler answers {@code FAIL}, the stream
 * thread is replaced and the record is read again, as the aggregator does for {@code gradients}. Without a
 * dead-letter topic in the config it logs and fails too, which is Kafka Streams' own default.
 */
public final class DeadLetterDeserializationHandler implements DeserializationExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterDeserializationHandler.class);
    private static final int NOT_FOUND = 404;

    private DeadLetterRecords deadLetters;

    @Override
    public void configure(final Map<String, ?> configs) {
        deadLetters = DeadLetterRecords.fromConfig(configs);
        if (deadLetters == null) {
            log.warn(
                    "no {} configured: a record that cannot be deserialized will stop its stream thread",
                    DeadLetterSettings.TOPIC);
        }
    }

    @Override
    public Response handleError(
            final ErrorHandlerContext context, final ConsumerRecord<byte[], byte[]> record, final Exception exception) {
        final SchemaRegistryException registryError = DeadLetterRecords.registryCause(exception);
        if (registryError != null && registryError.httpStatus() != NOT_FOUND) {
            log.error(
                    "schema registry unavailable, failing to retry task: {}, topic: {}, partition: {}, offset: {}",
                    context.taskId(),
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    exception);
            return Response.fail();
        }
        if (deadLetters == null) {
            log.error(
                    "cannot deserialize record and no dead-letter topic is configured, task: {}, topic: {}, "
                            + "partition: {}, offset: {}",
                    context.taskId(),
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    exception);
            return Response.fail();
        }
        final DeadLetterReason reason =
                registryError == null ? DeadLetterReason.MALFORMED : DeadLetterReason.UNKNOWN_SCHEMA;
        log.warn(
                "dead-lettered undeserializable record task: {}, topic: {}, partition: {}, offset: {}, reason: {}",
                context.taskId(),
                record.topic(),
                record.partition(),
                record.offset(),
                reason,
                exception);
        return Response.resume(List.of(deadLetters.record(context, record.key(), record.value(), reason, exception)));
    }
}
