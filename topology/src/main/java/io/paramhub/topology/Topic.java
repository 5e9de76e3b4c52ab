package io.paramhub.topology;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/** One Kafka topic with the serdes of its keys and values: the only way code names a topic. */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

    public Consumed<K, V> consumed() {
        return Consumed.with(keySerde, valueSerde);
    }

    public Produced<K, V> produced() {
        return Produced.with(keySerde, valueSerde);
    }
}
