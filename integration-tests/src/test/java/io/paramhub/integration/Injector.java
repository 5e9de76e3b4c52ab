package io.paramhub.integration;

import io.paramhub.topology.ClientProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Produces {@link Injection.Planned} records with a plain producer and tells where each one landed. */
final class Injector implements AutoCloseable {

    private record Sent(Injection.Planned planned, Future<RecordMetadata> metadata) {}

    private final KafkaProducer<String, byte[]> producer;
    private final List<Sent> unacknowledged = new ArrayList<>();

    Injector(final String bootstrapServers) {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // batches of fuzz go out together; a few ms of linger costs nothing here
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        producer = new KafkaProducer<>(
                ClientProperties.producer(props), new StringSerializer(), new ByteArraySerializer());
    }

    int partitions(final String topic) {
        return producer.partitionsFor(topic).size();
    }

    void send(final Injection.Planned planned) {
        unacknowledged.add(new Sent(
                planned,
                producer.send(
                        new ProducerRecord<>(planned.topic(), planned.partition(), planned.key(), planned.value()))));
    }

    /** Waits until every record sent so far is acknowledged; returns them, in order, with their offsets. */
    List<Injection> flush() throws InterruptedException, ExecutionException {
        producer.flush();
        final List<Injection> landed = new ArrayList<>();
        for (final Sent sent : unacknowledged) {
            final RecordMetadata metadata = sent.metadata().get();
            final Injection.Planned planned = sent.planned();
            landed.add(new Injection(
                    planned.kind(),
                    metadata.topic(),
                    metadata.partition(),
                    metadata.offset(),
                    planned.key(),
                    planned.value(),
                    planned.reasons()));
        }
        unacknowledged.clear();
        return landed;
    }

    @Override
    public void close() {
        producer.close();
    }
}
