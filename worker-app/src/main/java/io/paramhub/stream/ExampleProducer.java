package io.paramhub.stream;

import io.paramhub.ml.Dataset;
import io.paramhub.topology.ClientProperties;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes example {@code id} of a data set to the stream's topic: row {@code id mod size} of the data set, its label
 * through the {@link LabelDrift}, as an {@link ExampleRecords} value keyed by the id in decimal, to partition
 * {@code id mod partitions}, stamped with the send time. An idempotent producer with {@code acks=all}; it counts
 * the examples the broker acknowledged and keeps the first failure. Used by one thread.
 */
final class ExampleProducer {

    private final Producer<String, byte[]> producer;
    private final StreamTopic topic;
    private final Dataset data;
    private final ExampleRecords records;
    private final LabelDrift drift;
    /** The row being sent ({@link Dataset#copyRow}); one thread sends. */
    private final float[] row;

    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Callback callback = (metadata, error) -> {
        if (error == null) {
            acknowledged.incrementAndGet();
        } else {
            failure.compareAndSet(null, error);
        }
    };

    ExampleProducer(
            final Properties connection,
            final Duration timeout,
            final StreamTopic topic,
            final Dataset data,
            final int schemaId,
            final LabelDrift drift) {
        this.producer =
                new KafkaProducer<>(settings(connection, timeout), new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.data = data;
        this.records = new ExampleRecords(schemaId, data.isClassification());
        this.drift = drift;
        this.row = new float[data.features()];
    }

    /**
     * The producer's settings: the connection's Kafka settings (the registry client's left out), ParamHub's producer
     * defaults, idempotence and {@code acks=all} whatever was given, and {@code max.block.ms} of {@code timeout}
     * unless given, so that an unreachable broker fails a send instead of holding it for a minute.
     */
    static Properties settings(final Properties connection, final Duration timeout) {
        final Properties props = ClientProperties.producer(ClientProperties.withoutRegistrySettings(connection));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        return props;
    }

    /**
     * Sends example {@code id}.
     *
     * @throws IllegalStateException when an earlier send failed or this one cannot be handed to the producer
     */
    void send(final long id) {
        check();
        final int sample = (int) (id % data.size());
        final float target = data.y()[sample];
        final double label = data.isClassification() ? drift.label(id, (int) target) : target;
        data.copyRow(sample, row, 0);
        final byte[] value = records.encode(id, row, 0, row.length, label);
        final int partition = (int) (id % topic.partitions());
        try {
            producer.send(
                    new ProducerRecord<>(topic.name(), partition, System.currentTimeMillis(), Long.toString(id), value),
                    callback);
        } catch (final KafkaException e) {
            throw new IllegalStateException(
                    "cannot send example " + id + " to topic " + topic.name() + ": " + e.getMessage(), e);
        }
    }

    /** Waits until every example sent is acknowledged or has failed; then {@link #check}s. */
    void flush() {
        producer.flush();
        check();
    }

    /**
     * Fails when a send has failed.
     *
     * @throws IllegalStateException naming the topic and the broker's error
     */
    void check() {
        final Exception error = failure.get();
        if (error != null) {
            throw new IllegalStateException(
                    "writing to topic " + topic.name() + " failed: " + error.getMessage(), error);
        }
    }

    /** How many examples the broker has acknowledged. */
    long acknowledged() {
        return acknowledged.get();
    }

    /** Closes the producer, waiting at most {@code timeout} for examples still in flight. */
    void close(final Duration timeout) {
        producer.close(timeout);
    }
}
