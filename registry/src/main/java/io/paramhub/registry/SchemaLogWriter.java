package io.paramhub.registry;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of a registry cluster's schema topic: a transactional producer whose {@code transactional.id}
 * is the same on every registry instance of that topic ({@link #transactionalId}). Claiming the writer
 * ({@link #claim}, Kafka's {@code initTransactions}) fences every other instance's producer and aborts or
 * completes its open transaction before it returns; each append is one transaction of one record, which
 * commits only while no other instance has claimed the writer since. An instance that lost the writer gets
 * {@link WriterLostException} and claims it again. Not thread-safe: used from the registry's writer thread.
 */
final class SchemaLogWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SchemaLogWriter.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** A transaction holds one record: a writer that dies with one open blocks readers at most this long. */
    private static final int TRANSACTION_TIMEOUT_MS = 10_000;

    private final Map<String, Object> config;
    private final String topic;
    private KafkaProducer<String, String> producer;

    SchemaLogWriter(final Map<String, Object> kafkaConfig, final String topic) {
        this.config = producerConfig(kafkaConfig, topic);
        this.topic = topic;
    }

    /** The transactional id every registry instance keeping its schemas in {@code topic} writes with. */
    static String transactionalId(final String topic) {
        return "paramhub-schema-registry-" + topic;
    }

    /**
     * Makes this instance the writer, fencing any other, unless it already is; on return no transaction of
     * another instance is open, so a read to the end of the topic sees everything any writer committed.
     */
    void claim() {
        if (producer != null) {
            return;
        }
        final KafkaProducer<String, String> fresh =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        try {
            fresh.initTransactions();
        } catch (final RuntimeException e) {
            fresh.close(Duration.ZERO);
            throw e;
        }
        producer = fresh;
        log.info("claimed the schema log writer, topic: {}, transactional id: {}", topic, transactionalId(topic));
    }

    /**
     * Appends one record to partition 0 in a transaction of its own, as the writer claimed last; returns its
     * offset once committed.
     *
     * @throws WriterLostException when another instance claimed the writer since, or the transaction failed
     *                             otherwise (then it may or may not have committed: read the log again)
     */
    long append(final String key, final String value) throws WriterLostException, InterruptedException {
        claim();
        try {
            producer.beginTransaction();
            final long offset = producer.send(new ProducerRecord<>(topic, 0, key, value))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .offset();
            producer.commitTransaction();
            return offset;
        } catch (final ExecutionException | TimeoutException | KafkaException e) {
            final Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            release();
            if (cause instanceof AuthorizationException refused) {
                // no retry can help: say so at once
                throw refused;
            }
            throw new WriterLostException(topic, cause);
        }
    }

    /** Gives the writer up (closing the producer); the next {@link #claim} or append claims it again. */
    void release() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(TIMEOUT);
            producer = null;
        }
    }

    private static Map<String, Object> producerConfig(final Map<String, Object> kafkaConfig, final String topic) {
        final Map<String, Object> config = new HashMap<>(kafkaConfig);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(topic));
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, TRANSACTION_TIMEOUT_MS);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT.toMillis());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "paramhub-schema-registry-writer");
        return config;
    }

    /** This instance is no longer the writer, or its transaction failed: what it decided may be stale. */
    static final class WriterLostException extends Exception {

        WriterLostException(final String topic, final Throwable cause) {
            super("lost the writer of " + topic + ": " + cause, cause);
        }
    }
}
