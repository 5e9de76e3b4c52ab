package io.paramhub.topology;

import org.apache.kafka.common.serialization.Serde;

/** One Kafka topic with the serdes of its keys and values: the only way code names a topic. */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {}
