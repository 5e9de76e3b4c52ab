package io.paramhub.topology.errors;

import io.paramhub.avro.DeadLetterReason;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what becomes of an output record Kafka Streams cannot produce, so that one input record cannot
 * crash-loop a ParamHub app: the input record it came from is set aside as a {@code DeadLetter} (reason
 * {@code OTHER}, for the topic named by {@link DeadLetterSettings#TOPIC}) and processing resumes, whenever that is
 * safe.
 *
 * <ul>
 *   <li>An output record that cannot be serialized: dead-lettered and skipped, under exactly-once too. The
 *   producer never saw it, so the transaction stays good; the task's other output and store writes for the same
 *   input record are committed with the dead letter. A schema-registry failure is the environment, not the
 *   record: {@code FAIL}, so that the thread is replaced and the record retried.</li>
 *   <li>A send that fails with a retriable error: {@code RETRY} (Kafka Streams' default).</li>
 *   <li>A send that fails otherwise (e.g. {@code RecordTooLargeException}) under at-least-once: dead-lettered
 *   and skipped; the record is lost, its input is set aside.</li>
 *   <li>The same under exactly-once: {@code FAIL}. The producer has already made its open transaction abortable
 *   (any failed send does), so the next send or commit would fail whatever the answer, and no dead letter could
 *   be written in it. ParamHub avoids these by bounding what it writes ({@link DeadLetters}, shard sizes,
 *   admission control) rather than by skipping them.</li>
 * </ul>
 */
public final class DeadLetterProductionHandler implements ProductionExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterProductionHandler.class);

    private DeadLetterRecords deadLetters;
    private boolean exactlyOnce = true;

    @Override
    public void configure(final Map<String, ?> configs) {
        deadLetters = DeadLetterRecords.fromConfig(configs);
        final Object guarantee = configs.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        exactlyOnce = guarantee == null || !StreamsConfig.AT_LEAST_ONCE.equals(guarantee.toString());
    }

    @Override
    public Response handleSerializationError(
            final ErrorHandlerContext context,
            final ProducerRecord record,
            final Exception exception,
            final SerializationExceptionOrigin origin) {
        if (DeadLetterRecords.registryCause(exception) != null || deadLetters == null) {
            log.error(
                    "could not serialize the {} of a record for topic: {}, failing so that it is retried, task: {}, "
                            + "source topic: {}, partition: {}, offset: {}",
                    origin,
                    record.topic(),
                    context.taskId(),
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    exception);
            return Response.fail();
        }
        return setAside(context, record.topic(), "could not serialize the " + origin + " of a record for", exception);
    }

    @Override
    public Response handleError(
            final ErrorHandlerContext context, final ProducerRecord<byte[], byte[]> record, final Exception exception) {
        if (exception instanceof RetriableException) {
            log.warn("retrying a record for topic: {}, task: {}", record.topic(), context.taskId(), exception);
            return Response.retry();
        }
        if (exactlyOnce || deadLetters == null || record.topic().equals(deadLetters.topic())) {
            log.error(
                    "could not produce a record of {} bytes to topic: {}, failing (under exactly-once the transaction "
                            + "is lost already), task: {}, source topic: {}, partition: {}, offset: {}",
                    record.value() == null ? 0 : record.value().length,
                    record.topic(),
                    context.taskId(),
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    exception);
            return Response.fail();
        }
        return setAside(context, record.topic(), "could not produce a record to", exception);
    }

    /** Resumes, with the dead letter of the input record whose output for {@code topic} could not be produced. */
    private Response setAside(
            final ErrorHandlerContext context, final String topic, final String what, final Exception exception) {
        log.error(
                "dead-lettered the input record: {} topic: {}, task: {}, source topic: {}, partition: {}, "
                        + "offset: {}",
                what,
                topic,
                context.taskId(),
                context.topic(),
                context.partition(),
                context.offset(),
                exception);
        return Response.resume(List.of(deadLetters.record(
                context,
                context.sourceRawKey(),
                context.sourceRawValue(),
                DeadLetterReason.OTHER,
                what + " " + topic + ": " + DeadLetterRecords.describe(exception))));
    }
}
