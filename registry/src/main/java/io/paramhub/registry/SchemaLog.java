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
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's storage: a compacted, single-partition topic ({@code _schemas} by default), created if
 * missing, written through the cluster's one {@link SchemaLogWriter} and read committed. Appends are
 * acknowledged by all in-sync replicas before they return; {@link #catchUp} reads what the topic holds beyond
 * the last record read. Not thread-safe: used from the registry's writer thread only.
 */
final class SchemaLog implements AutoCloseable {

    /** The topic Confluent's registry uses, by default. */
    static final String DEFAULT_TOPIC = "_schemas";

    private static final Logger log = LoggerFactory.getLogger(SchemaLog.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);

    private final String topic;
    private final TopicPartition partition;
    private final SchemaLogWriter writer;
    private final KafkaConsumer<String, String> consumer;

    private SchemaLog(final Map<String, Object> kafkaConfig, final String topic) {
        this.topic = topic;
        this.partition = new TopicPartition(topic, 0);
        this.writer = new SchemaLogWriter(kafkaConfig, topic);
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

    /**
     * Makes this instance the topic's writer (fencing any other) unless it is already; a {@link #catchUp} after
     * this sees every record committed before, and only this instance can commit until another claims.
     */
    void claimWriter() {
        writer.claim();
    }

    /**
     * Appends one record as the writer, then hands {@code state} every record up to and including it.
     *
     * @throws SchemaLogWriter.WriterLostException when another instance claimed the writer since this one did,
     *                                             or the append failed (it may have committed: read again)
     */
    void append(final RegistryState state, final String key, final String value)
            throws SchemaLogWriter.WriterLostException, TimeoutException, InterruptedException {
        final long offset = writer.append(key, value);
        // a commit returns before its marker is written: read until the record itself, not to the end offset
        readUntil(state, offset + 1);
    }

    /** Hands every record between the last one read and the current end of the topic to {@code state}. */
    void catchUp(final RegistryState state) throws TimeoutException {
        catchUp(state, TIMEOUT);
    }

    /** As {@link #catchUp(RegistryState)}, giving up after {@code timeout}. */
    void catchUp(final RegistryState state, final Duration timeout) throws TimeoutException {
        // read committed: the end is the last stable offset, which no open transaction lies below
        readUntil(state, consumer.endOffsets(List.of(partition), timeout).get(partition), timeout);
    }

    private void readUntil(final RegistryState state, final long end) throws TimeoutException {
        readUntil(state, end, TIMEOUT);
    }

    private void readUntil(final RegistryState state, final long end, final Duration timeout) throws TimeoutException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (consumer.position(partition, timeout) < end) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("reading " + topic + " did not reach offset " + end + " within " + timeout);
            }
            for (final ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                SchemaLogCodec.apply(record.key(), record.value(), record.offset(), state);
            }
        }
    }

    @Override
    public void close() {
        writer.close();
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
