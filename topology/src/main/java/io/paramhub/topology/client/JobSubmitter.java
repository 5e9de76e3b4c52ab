package io.paramhub.topology.client;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes a checked {@link JobSpec} to {@code jobs}, keyed by its name, and waits for the broker's ack. Its
 * producer takes records up to {@link TopicCatalog#JOBS_MAX_MESSAGE_BYTES}: an external model's spec carries its
 * version 0.
 */
public final class JobSubmitter {

    private JobSubmitter() {}

    public static void submit(
            final Topic<String, JobSpec> jobs, final Properties clientProperties, final JobSpec spec) {
        JobSpecs.requireValid(spec);
        try (KafkaProducer<String, JobSpec> producer = new KafkaProducer<>(
                ClientProperties.producer(largeRecords(clientProperties)),
                new StringSerializer(),
                jobs.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(jobs.name(), spec.getJob(), spec))
                    .get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while submitting job " + spec.getJob(), e);
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException) {
                throw new IllegalStateException(
                        "could not submit job " + spec.getJob() + ": " + jobs.name()
                                + " refuses a record this large ("
                                + e.getCause().getMessage() + "); raise the topic's "
                                + "max.message.bytes to " + TopicCatalog.JOBS_MAX_MESSAGE_BYTES
                                + ", as ParamHub creates it",
                        e.getCause());
            }
            throw new IllegalStateException(
                    "could not submit job " + spec.getJob() + " to " + jobs.name() + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    /** {@code given} with room for the largest spec, unless it says otherwise. */
    private static Properties largeRecords(final Properties given) {
        final Properties props = new Properties();
        props.putAll(given);
        props.putIfAbsent(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(TopicCatalog.JOBS_MAX_MESSAGE_BYTES));
        props.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(2L * TopicCatalog.JOBS_MAX_MESSAGE_BYTES));
        return props;
    }
}
