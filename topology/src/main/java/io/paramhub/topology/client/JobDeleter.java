package io.paramhub.topology.client;

import io.paramhub.topology.ClientProperties;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Deletes a job: writes a tombstone (its name as key, no value) to {@code jobs} and waits for the broker's
 * ack. The aggregator, the orchestrator and the dashboard then drop the job's state, and the aggregator
 * tombstones its records on {@code model}. Needs no schema registry.
 */
public final class JobDeleter {

    private JobDeleter() {}

    public static void delete(final String jobsTopic, final Properties clientProperties, final String job) {
        if (job == null || job.isBlank() || job.indexOf('/') >= 0) {
            throw new IllegalArgumentException("no job name: '" + job + "'");
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                ClientProperties.producer(clientProperties), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(jobsTopic, job, null)).get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting job " + job, e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(
                    "could not delete job " + job + " on " + jobsTopic + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
    }
}
