package io.paramhub.registry;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's storage: a compacted, single-partition topic ({@code _schemas} by default), created if
 * missing. Appends are acknowledged by all in-sync replicas before they return; {@link #catchUp} reads what
 * the topic holds beyond the last record read. Not thread-safe: used from the registry's writer thread only.
 */
final class SchemaLog implements AutoCloseable {

    /** The topic Confluent's registry uses, by default. */
    static final String DEFAULT_TOPIC = "_schemas";

    private static final Logger log = LoggerFactory.getLogger(SchemaLog.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);

    private final String topic;
    private final TopicPartition partition;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;

    private SchemaLog(final Map<String, Object> kafkaConfig, final String topic) {
        this.topic = topic;
        this.partition = new TopicPartition(topic, 0);
        this.producer =
                new KafkaProducer<>(producerConfig(kafkaConfig), new StringSerializer(), new StringSerializer());
        this.consumer =
                new KafkaConsumer<>(consumerConfig(kafkaConfig), new StringDeserializer(), new StringDeserializer());
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
    }

    /** Creates {@code topic} when missing and opens a producer and a reader positioned at its start. */
    static SchemaLog open(final Map<String, Object> kafkaConfig, final String topic) {
        try (Admin admin = Admin.create(kafkaConfig)) {
            ensureTopic(admin, topic);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topic " + topic, e);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create or describe topic " + topic + ": " + e.getMessage(), e);
        }
        return new SchemaLog(kafkaConfig, topic);
    }

    /** The topic this log is kept in. */
    String topic() {
        return topic;
    }

    /** Appends one record and waits until all in-sync replicas have it. */
    void append(final String key, final String value)
            throws ExecutionException, TimeoutException, InterruptedException {
        producer.send(new ProducerRecord<>(topic, 0, key, value)).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Hands every record between the last one read and the current end of the topic to {@code state}. */
    void catchUp(final RegistryState state) throws TimeoutException {
        final long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (consumer.position(partition, TIMEOUT) < end) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("reading " + topic + " did not reach offset " + end + " within " + TIMEOUT);
            }
            for (final ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                SchemaLogCodec.apply(record.key(), record.value(), record.offset(), state);
            }
        }
    }

    @Override
    public void close() {
        producer.close(TIMEOUT);
        consumer.close(CloseOptions.timeout(TIMEOUT));
    }

    /**
     * Creates {@code topic} when missing: compacted, one partition (the order of its records is the order of
     * the registry's writes), replicated to min(3, brokers) with {@code min.insync.replicas} 2 when replicated;
     * then checks that it has one partition.
     */
    private static void ensureTopic(final Admin admin, final String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        final int brokers = admin.describeCluster()
                .nodes()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .size();
        final short replicas = (short) Math.min(3, brokers);
        final Map<String, String> configs = new HashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        if (replicas > 1) {
            configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2");
        }
        try {
            admin.createTopics(List.of(new NewTopic(topic, 1, replicas).configs(configs)))
                    .all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            log.info("created topic: {}, replication factor: {}", topic, replicas);
        } catch (final ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        final int partitions = partitionCount(admin, topic);
        if (partitions != 1) {
            throw new IllegalStateException("topic " + topic + " has " + partitions
                    + " partitions; the schema registry needs exactly 1 to keep the order of its records");
        }
    }

    /** The partition count of {@code topic}, waiting for a topic just created to show up in the metadata. */
    private static int partitionCount(final Admin admin, final String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                return admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(topic)
                        .partitions()
                        .size();
            } catch (final ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(POLL.toMillis());
            }
        }
    }

    private static Map<String, Object> producerConfig(final Map<String, Object> kafkaConfig) {
        final Map<String, Object> config = new HashMap<>(kafkaConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT.toMillis());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "paramhub-schema-registry-writer");
        return config;
    }

    private static Map<String, Object> consumerConfig(final Map<String, Object> kafkaConfig) {
        final Map<String, Object> config = new HashMap<>(kafkaConfig);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // the reader only fetches while catching up after a write: answer at once rather than wait for more data
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "paramhub-schema-registry-reader");
        return config;
    }
}
