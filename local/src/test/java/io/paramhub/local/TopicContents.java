package io.paramhub.local;

import io.paramhub.topology.client.ClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/** Everything committed on a topic right now, read with {@code isolation.level=read_committed}. */
final class TopicContents {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TopicContents() {
    }

    /** Every committed record of {@code topic}, up to each partition's last stable offset. */
    static <K, V> List<ConsumerRecord<K, V>> readAll(final String bootstrapServers, final String topic,
                                                     final Deserializer<K> keys, final Deserializer<V> values) {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(ClientProperties.assignedConsumer(props), keys,
                 values)) {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic, TIMEOUT).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
            final List<ConsumerRecord<K, V>> records = new ArrayList<>();
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " up to " + ends + " in " + TIMEOUT);
                }
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
            return records;
        }
    }
}
