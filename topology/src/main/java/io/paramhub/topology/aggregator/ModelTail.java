package io.paramhub.topology.aggregator;

import io.paramhub.avro.ModelShard;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the newest committed {@code model} record of some keys of one partition, backwards from the partition's
 * end in growing windows, when a shard task starts on stored state: shard 0's newest version carries the job's
 * lineage ({@code ModelShard.examples}), which the shard's stored state does not. Only the records of those keys
 * are decoded. Built from the Streams app's own client settings, as {@link GradientRestore} is.
 */
final class ModelTail {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(200);
    /** Records in the first window read; each further window is twice as long, up to {@link #LARGEST_WINDOW}. */
    private static final int FIRST_WINDOW = 64;

    private static final int LARGEST_WINDOW = 4_096;

    private final Map<String, Object> appConfigs;

    ModelTail(final Map<String, Object> appConfigs) {
        this.appConfigs = appConfigs;
    }

    /**
     * The newest record of each of {@code keys} in {@code partition}, decoded with {@code values}; a key whose
     * newest record is a tombstone, or that has none, is not in the answer.
     */
    Map<String, ModelShard> newest(
            final TopicPartition partition, final Collection<String> keys, final Deserializer<ModelShard> values) {
        final Map<String, ModelShard> found = new HashMap<>();
        final Set<String> sought = new HashSet<>(keys);
        try (KafkaConsumer<String, byte[]> consumer = GradientRestore.reader(appConfigs)) {
            consumer.assign(List.of(partition));
            final long start =
                    consumer.beginningOffsets(List.of(partition), TIMEOUT).get(partition);
            long windowEnd = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
            int window = FIRST_WINDOW;
            while (!sought.isEmpty() && windowEnd > start) {
                final long windowStart = Math.max(start, windowEnd - window);
                final Map<String, byte[]> newest = read(consumer, partition, windowStart, windowEnd, sought);
                newest.forEach((key, value) -> {
                    sought.remove(key);
                    if (value != null) {
                        found.put(key, values.deserialize(partition.topic(), value));
                    }
                });
                windowEnd = windowStart;
                window = Math.min(LARGEST_WINDOW, 2 * window);
            }
        }
        return found;
    }

    /** The newest value (null for a tombstone) of each of {@code keys} among the records in [{@code from}, {@code until}). */
    private static Map<String, byte[]> read(
            final KafkaConsumer<String, byte[]> consumer,
            final TopicPartition partition,
            final long from,
            final long until,
            final Set<String> keys) {
        final Map<String, byte[]> newest = new HashMap<>();
        consumer.seek(partition, from);
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (consumer.position(partition, TIMEOUT) < until) {
            if (System.nanoTime() > deadline) {
                throw new KafkaException("reading " + partition + " from " + from + " to " + until + " took over "
                        + TIMEOUT.toSeconds() + " s; stopped at " + consumer.position(partition));
            }
            for (final ConsumerRecord<String, byte[]> record :
                    consumer.poll(POLL).records(partition)) {
                if (record.offset() >= until) {
                    return newest;
                }
                if (keys.contains(record.key())) {
                    newest.put(record.key(), record.value());
                }
            }
        }
        return newest;
    }
}
