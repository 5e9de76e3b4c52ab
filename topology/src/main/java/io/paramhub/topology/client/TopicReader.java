package io.paramhub.topology.client;

import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads every partition of one topic from the beginning (or from given positions) without a consumer
 * group, as a replica of a compacted topic ({@code jobs}, {@code model}) needs; committed records only,
 * unless the given properties set {@code isolation.level=read_uncommitted}.
 *
 * <p>A record that does not deserialize (anyone with write access can put bytes on a topic) is handed to
 * the reader's {@link UndecodableRecordHandler}, which by default logs it, and skipped: one bad record
 * must not stop every reader of the topic.
 */
public final class TopicReader<K, V> implements AutoCloseable {

    private static final Duration CATCH_UP_POLL = Duration.ofMillis(50);

    private final KafkaConsumer<K, V> consumer;
    private final UndecodableRecordHandler undecodable;

    public TopicReader(final Topic<K, V> topic, final Properties clientProperties) {
        this(topic, clientProperties, Map.of());
    }

    /** A reader that starts each partition at its offset in {@code startAt}, and those it lacks at the beginning. */
    public TopicReader(
            final Topic<K, V> topic, final Properties clientProperties, final Map<TopicPartition, Long> startAt) {
        this(topic, clientProperties, startAt, UndecodableRecordHandler.LOG);
    }

    /** As {@link #TopicReader(Topic, Properties, Map)}, handing records that do not deserialize to {@code undecodable}. */
    public TopicReader(
            final Topic<K, V> topic,
            final Properties clientProperties,
            final Map<TopicPartition, Long> startAt,
            final UndecodableRecordHandler undecodable) {
        this(topic, clientProperties, startAt, undecodable, null);
    }

    /**
     * As {@link #TopicReader(Topic, Properties, Map, UndecodableRecordHandler)}, reading only the partitions
     * that Kafka's default partitioner gives {@code keys} (every partition when null), as a pipeline stage
     * worker reads only its stage's shards of {@code model}.
     */
    public TopicReader(
            final Topic<K, V> topic,
            final Properties clientProperties,
            final Map<TopicPartition, Long> startAt,
            final UndecodableRecordHandler undecodable,
            final Collection<String> keys) {
        this.undecodable = undecodable;
        this.consumer = new KafkaConsumer<>(
                ClientProperties.assignedConsumer(clientProperties),
                topic.keySerde().deserializer(),
                topic.valueSerde().deserializer());
        final List<TopicPartition> all = consumer.partitionsFor(topic.name(), Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .collect(Collectors.toList());
        final Set<Integer> wanted = new HashSet<>();
        if (keys != null) {
            for (final String key : keys) {
                wanted.add(Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % all.size());
            }
        }
        final List<TopicPartition> partitions = keys == null || all.isEmpty()
                ? all
                : all.stream().filter(p -> wanted.contains(p.partition())).collect(Collectors.toList());
        if (partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topic.name() + " does not exist");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        startAt.forEach((partition, offset) -> {
            if (partitions.contains(partition)) {
                consumer.seek(partition, offset);
            }
        });
    }

    /** The offset of the next record this reader will hand out, per partition. */
    public Map<TopicPartition, Long> positions() {
        return consumer.assignment().stream().collect(Collectors.toMap(partition -> partition, consumer::position));
    }

    /** Goes to {@code offset} of {@code partition}, one of this reader's: the next poll reads from there. */
    public void seek(final TopicPartition partition, final long offset) {
        consumer.seek(partition, offset);
    }

    /**
     * Polls once for at most {@code timeout}, handing each record to {@code sink}; returns the count. A record
     * that does not deserialize goes to the {@link UndecodableRecordHandler} and is skipped (not counted).
     */
    public int poll(final Duration timeout, final Consumer<ConsumerRecord<K, V>> sink) {
        final ConsumerRecords<K, V> records;
        try {
            records = consumer.poll(timeout);
        } catch (final RecordDeserializationException e) {
            undecodable.accept(e);
            consumer.seek(e.topicPartition(), e.offset() + 1);
            return 0;
        }
        int count = 0;
        for (final ConsumerRecord<K, V> record : records) {
            sink.accept(record);
            count++;
        }
        return count;
    }

    /**
     * Reads up to the end the topic had when called (the last stable offset of each partition), even
     * while producers keep appending; returns the count. A reader that waited instead for a quiet poll
     * would never catch up with a topic written to faster than its poll timeout.
     */
    public int catchUp(final Duration timeout, final Consumer<ConsumerRecord<K, V>> sink) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        final Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
        int count = 0;
        while (!reached(end)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read " + end.keySet() + " up to offsets " + end + " within "
                        + timeout.toMillis() + " ms");
            }
            count += poll(CATCH_UP_POLL, sink);
        }
        return count;
    }

    private boolean reached(final Map<TopicPartition, Long> end) {
        return end.entrySet().stream()
                .allMatch(partition -> consumer.position(partition.getKey()) >= partition.getValue());
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
