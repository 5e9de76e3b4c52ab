package io.paramhub.worker;

import io.paramhub.ml.ExampleFields;
import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.topology.ClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the submitter learns of a topic-mode job's data topic before it submits the job: its partitions, their
 * beginning and end offsets (as {@code read_committed} sees them when the probe starts), and what the first
 * records say ({@link TopicSample}). Reads up to {@link #MAX_RECORDS} records from the beginning of every
 * partition with a plain assigned consumer (no group, nothing committed), stopping at the end offsets it saw at
 * the start or when its time is up. Reads the data topic and the registry; writes nothing.
 */
final class TopicProbe {

    /** Records read at most. */
    static final int MAX_RECORDS = 10_000;
    /** How long the probe reads at most, and waits for Kafka's answers. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** How long a topic that no broker knows yet is looked up again before it counts as missing. */
    static final Duration METADATA_GRACE = Duration.ofSeconds(3);

    private static final Duration METADATA_RETRY = Duration.ofMillis(100);

    private static final Duration POLL = Duration.ofMillis(100);

    private final Properties clientProperties;
    private final SchemaRegistryClient registry;
    private final Duration timeout;

    /** A probe reading through {@code clientProperties}, with writer schemas from {@code registry}. */
    TopicProbe(final Properties clientProperties, final SchemaRegistryClient registry, final Duration timeout) {
        this.clientProperties = clientProperties;
        this.registry = registry;
        this.timeout = timeout;
    }

    /**
     * What a probe saw of {@code topic}: its partitions' beginning and end offsets in partition order (none when
     * the topic does not exist), the sample of its first records, and whether the time ran out before the probe
     * read up to the end offsets or {@link #MAX_RECORDS} records.
     */
    record Result(String topic, List<Long> beginnings, List<Long> ends, TopicSample.Seen seen, boolean timedOut) {

        /** Copies the lists. */
        Result {
            beginnings = List.copyOf(beginnings);
            ends = List.copyOf(ends);
        }

        /** The probe of a topic that does not exist. */
        static Result missing(final String topic) {
            return new Result(topic, List.of(), List.of(), TopicSample.Seen.NOTHING, false);
        }

        boolean exists() {
            return !ends.isEmpty();
        }

        int partitions() {
            return ends.size();
        }

        /** The records before the end offsets: from each partition's beginning to its end. */
        long available() {
            long available = 0;
            for (int p = 0; p < ends.size(); p++) {
                available += Math.max(0, ends.get(p) - beginnings.get(p));
            }
            return available;
        }
    }

    /**
     * The partitions of {@code topic}; none when it does not exist. A topic created a moment ago may not be in a
     * broker's metadata yet, so an unknown topic is asked for again for up to {@link #METADATA_GRACE}.
     */
    private List<PartitionInfo> partitions(final KafkaConsumer<byte[], byte[]> consumer, final String topic) {
        final long deadline = System.nanoTime() + Math.min(timeout.toNanos(), METADATA_GRACE.toNanos());
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        while ((infos == null || infos.isEmpty()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(METADATA_RETRY.toMillis());
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while looking up data topic " + topic, e);
            }
            infos = consumer.partitionsFor(topic, timeout);
        }
        return infos == null ? List.of() : infos;
    }

    /**
     * Probes {@code topic}, its records read with {@code fields}.
     *
     * @throws IllegalStateException when Kafka or the registry does not answer in time
     */
    Result probe(final String topic, final ExampleFields fields) {
        final Properties props = ClientProperties.assignedConsumer(clientProperties);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "paramhub-submit-probe");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            final List<PartitionInfo> infos = partitions(consumer, topic);
            if (infos.isEmpty()) {
                return Result.missing(topic);
            }
            final List<TopicPartition> partitions = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition))
                    .toList();
            // assigned first: a read_committed consumer keeps the last stable offsets it lists for its partitions
            consumer.assign(partitions);
            final Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(partitions, timeout);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            final TopicSample sample = new TopicSample(new DataTopicValues(registry, fields));
            final boolean timedOut = read(consumer, partitions, beginnings, ends, sample);
            return new Result(
                    topic,
                    partitions.stream().map(beginnings::get).toList(),
                    partitions.stream().map(ends::get).toList(),
                    sample.seen(),
                    timedOut);
        } catch (final KafkaException e) {
            throw new IllegalStateException(
                    "cannot probe data topic " + topic + " within " + timeout.toSeconds() + " s: " + e.getMessage(), e);
        } catch (final SchemaRegistryException e) {
            throw new IllegalStateException(
                    "cannot probe data topic " + topic + ": the schema registry failed: " + e.getMessage(), e);
        }
    }

    /** Reads every partition from its beginning into {@code sample}; whether the time ran out first. */
    private boolean read(
            final KafkaConsumer<byte[], byte[]> consumer,
            final List<TopicPartition> partitions,
            final Map<TopicPartition, Long> beginnings,
            final Map<TopicPartition, Long> ends,
            final TopicSample sample) {
        final List<TopicPartition> open = new ArrayList<>();
        for (final TopicPartition partition : partitions) {
            consumer.seek(partition, beginnings.get(partition));
            if (beginnings.get(partition) < ends.get(partition)) {
                open.add(partition);
            }
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!open.isEmpty() && sample.records() < MAX_RECORDS) {
            if (System.nanoTime() - deadline > 0) {
                return true;
            }
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                final long end = ends.get(new TopicPartition(record.topic(), record.partition()));
                if (record.offset() < end && sample.records() < MAX_RECORDS) {
                    sample.add(record.partition(), record.offset(), record.value());
                }
            }
            open.removeIf(partition -> consumer.position(partition) >= ends.get(partition));
        }
        return false;
    }
}
