package io.paramhub.integration;

import io.paramhub.topology.Topic;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Everything on a topic right now: committed records ({@code read_committed}), or all of them. */
final class TopicContents {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TopicContents() {}

    /** Every committed record of {@code topic}, up to each partition's last stable offset. */
    static <K, V> List<ConsumerRecord<K, V>> readAll(
            final String bootstrapServers,
            final String topic,
            final Deserializer<K> keys,
            final Deserializer<V> values) {
        return readAll(bootstrapServers, topic, keys, values, IsolationLevel.READ_COMMITTED);
    }

    /** Every committed record of {@code topic}, one of ParamHub's, read with its serdes. */
    static <V> List<ConsumerRecord<String, V>> readAll(final String bootstrapServers, final Topic<String, V> topic) {
        return readAll(
                bootstrapServers,
                topic.name(),
                new StringDeserializer(),
                topic.valueSerde().deserializer());
    }

    /** The values of {@link #readAll(String, Topic)}'s records, tombstones left out. */
    static <V> List<V> values(final String bootstrapServers, final Topic<String, V> topic) {
        return readAll(bootstrapServers, topic).stream()
                .map(ConsumerRecord::value)
                .filter(Objects::nonNull)
                .toList();
    }

    /** As {@link #readAll(String, String, Deserializer, Deserializer)}, reading {@code isolation} records. */
    static <K, V> List<ConsumerRecord<K, V>> readAll(
            final String bootstrapServers,
            final String topic,
            final Deserializer<K> keys,
            final Deserializer<V> values,
            final IsolationLevel isolation) {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString());
        try (TopicReader<K, V> reader =
                new TopicReader<>(new Topic<>(topic, readOnly(keys), readOnly(values)), props)) {
            final List<ConsumerRecord<K, V>> records = new ArrayList<>();
            reader.catchUp(TIMEOUT, records::add);
            return records;
        }
    }

    private static <T> Serde<T> readOnly(final Deserializer<T> deserializer) {
        return Serdes.serdeFrom(
                (topic, value) -> {
                    throw new UnsupportedOperationException("TopicContents only reads");
                },
                deserializer);
    }
}
