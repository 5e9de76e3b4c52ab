package io.paramhub.topology.client;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes a checked {@link JobSpec} to {@code jobs}, keyed by its name, and waits for the broker's ack. */
public final class JobSubmitter {

    private JobSubmitter() {}

    public static void submit(
            final Topic<String, JobSpec> jobs, final Properties clientProperties, final JobSpec spec) {
        JobSpecs.requireValid(spec);
        try (KafkaProducer<String, JobSpec> producer = new KafkaProducer<>(
                ClientProperties.producer(clientProperties),
                new StringSerializer(),
                jobs.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(jobs.name(), spec.getJob(), spec))
                    .get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while submitting job " + spec.getJob(), e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(
                    "could not submit job " + spec.getJob() + " to " + jobs.name() + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
    }
}
