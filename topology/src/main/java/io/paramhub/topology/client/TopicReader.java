package io.paramhub.topology.client;

import io.paramhub.topology.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads every partition of one topic from the beginning without a consumer group, as a replica of
 * a compacted topic ({@code jobs}, {@code model}) needs; committed records only.
 */
public final class TopicReader<K, V> implements AutoCloseable {

    private final KafkaConsumer<K, V> consumer;

    public TopicReader(final Topic<K, V> topic, final Properties clientProperties) {
        this.consumer = new KafkaConsumer<>(ClientProperties.assignedConsumer(clientProperties),
            topic.keySerde().deserializer(), topic.valueSerde().deserializer());
        final List<TopicPartition> partitions = consumer.partitionsFor(topic.name(), Duration.ofSeconds(30)).stream()
            .map(info -> new TopicPartition(info.topic(), info.partition()))
            .collect(Collectors.toList());
        if (partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topic.name() + " does not exist");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Polls once for at most {@code timeout}, handing each record to {@code sink}; returns the count. */
    public int poll(final Duration timeout, final Consumer<ConsumerRecord<K, V>> sink) {
        int count = 0;
        for (final ConsumerRecord<K, V> record : consumer.poll(timeout)) {
            sink.accept(record);
            count++;
        }
        return count;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
