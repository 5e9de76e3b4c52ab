package io.paramhub.topology.errors;

import io.paramhub.avro.DeadLetterReason;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets aside a record on which a processor threw an unexpected exception (a bug that one record
 * triggers), so that it does not stop the stream thread over and over: logs it and resumes, handing
 * Streams a {@code DeadLetter} with reason {@code OTHER}, the source record's raw key and value, for the
 * topic named by {@link DeadLetterSettings#TOPIC}. Expected bad input never gets here: the
 * processors turn it into dead letters with a precise reason themselves.
 *
 * <p>Failures of the environment rather than of the record answer {@code FAIL}, so that the thread is
 * replaced and the record retried, as before: anything whose cause chain holds a schema-registry error or a
 * Kafka client or Streams exception (other than a {@link SerializationException} without a registry cause),
 * an exception in a punctuation (there is no record to set aside), or no dead-letter topic configured.
 *
 * <p>Kafka Streams does not roll back the store writes a processor made for the record before it threw;
 * under exactly-once they are committed with the dead letter.
 */
public final class DeadLetterProcessingHandler implements ProcessingExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterProcessingHandler.class);

    private DeadLetterRecords deadLetters;

    @Override
    public void configure(final Map<String, ?> configs) {
        deadLetters = DeadLetterRecords.fromConfig(configs);
    }

    @Override
    public Response handleError(
            final ErrorHandlerContext context, final Record<?, ?> record, final Exception exception) {
        if (record == null) {
            log.error(
                    "punctuation failed, task: {}, processor: {}",
                    context.taskId(),
                    context.processorNodeId(),
                    exception);
            return Response.fail();
        }
        if (isEnvironmentFailure(exception) || deadLetters == null) {
            log.error(
                    "processing failed, failing so that the record is retried, task: {}, processor: {}, topic: {}, "
                            + "partition: {}, offset: {}",
                    context.taskId(),
                    context.processorNodeId(),
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    exception);
            return Response.fail();
        }
        log.error(
                "dead-lettered record a processor failed on, task: {}, processor: {}, topic: {}, partition: {}, "
                        + "offset: {}",
                context.taskId(),
                context.processorNodeId(),
                context.topic(),
                context.partition(),
                context.offset(),
                exception);
        return Response.resume(List.of(deadLetters.record(
                context, context.sourceRawKey(), context.sourceRawValue(), DeadLetterReason.OTHER, exception)));
    }

    /** Whether {@code exception} comes from the registry, the brokers or Streams itself rather than the record. */
    static boolean isEnvironmentFailure(final Exception exception) {
        if (DeadLetterRecords.registryCause(exception) != null) {
            return true;
        }
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof KafkaException && !(cause instanceof SerializationException)) {
                return true;
            }
        }
        return false;
    }
}
