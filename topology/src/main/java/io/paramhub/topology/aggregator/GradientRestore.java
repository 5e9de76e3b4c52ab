package io.paramhub.topology.aggregator;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a shard task's {@code gradients} partition back when the task starts on stored state: the
 * offset the aggregator's group committed for it (where the task goes on), and the records between a
 * shard's {@code pendingFromOffset} and that offset, which were read before but whose gradients, held
 * in memory only, were lost with the task. Built from the Streams app's own client settings, so it
 * reaches the cluster (security settings included) as the app does.
 */
final class GradientRestore {

    private static final Logger log = LoggerFactory.getLogger(GradientRestore.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Map<String, Object> appConfigs;

    GradientRestore(final Map<String, Object> appConfigs) {
        this.appConfigs = appConfigs;
    }

    /** The offset the app's group has committed for {@code partition}, waiting for open transactions to end. */
    OptionalLong committedOffset(final TopicPartition partition) {
        final String group = String.valueOf(appConfigs.get(StreamsConfig.APPLICATION_ID_CONFIG));
        try (Admin admin = Admin.create(clientConfigs(AdminClientConfig.configNames()))) {
            final Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                            Map.of(group, new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(partition))),
                            new ListConsumerGroupOffsetsOptions().requireStable(true))
                    .partitionsToOffsetAndMetadata(group)
                    .get();
            final OffsetAndMetadata offset = committed.get(partition);
            return offset == null ? OptionalLong.empty() : OptionalLong.of(offset.offset());
        } catch (final ExecutionException e) {
            throw new KafkaException(
                    "could not read the committed offset of " + partition + " for group " + group, e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while reading the committed offset of " + partition, e);
        }
    }

    /** Hands every record of {@code partition} in [{@code from}, {@code until}) to {@code action}, in offset order. */
    void read(
            final TopicPartition partition,
            final long from,
            final long until,
            final Consumer<ConsumerRecord<String, byte[]>> action) {
        try (KafkaConsumer<String, byte[]> consumer = reader(appConfigs)) {
            consumer.assign(List.of(partition));
            final long logStart =
                    consumer.beginningOffsets(List.of(partition), TIMEOUT).get(partition);
            if (logStart > from) {
                log.error(
                        "{}: the gradients from offset {} to {}, read before this task stopped, are gone (retention); "
                                + "a BSP clock that had one of them buffered stalls, since its worker, still live, will not send it "
                                + "again. The retention of {} must cover the longest aggregator outage plus the longest open clock",
                        partition,
                        from,
                        logStart - 1,
                        partition.topic());
            }
            final long start = Math.max(from, logStart);
            consumer.seek(partition, start);
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(partition, TIMEOUT) < until) {
                if (System.nanoTime() > deadline) {
                    throw new KafkaException("re-reading " + partition + " from " + from + " to " + until
                            + " took over " + TIMEOUT.toSeconds() + " s; stopped at " + consumer.position(partition));
                }
                final ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
                for (final ConsumerRecord<String, byte[]> record : records.records(partition)) {
                    if (record.offset() >= until) {
                        return;
                    }
                    action.accept(record);
                }
            }
        }
    }

    /**
     * A consumer of committed records, in no group and committing nothing, with the app's connection settings;
     * the caller assigns it its partition.
     */
    static KafkaConsumer<String, byte[]> reader(final Map<String, Object> appConfigs) {
        final Map<String, Object> config = clientConfigs(appConfigs, ConsumerConfig.configNames());
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // it reads a bounded range and stops: a fetch that waits at the broker for more (500 ms by default) is
        // only time a moved shard is not served
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.CLIENT_ID_CONFIG);
        return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    private Map<String, Object> clientConfigs(final Set<String> known) {
        return clientConfigs(appConfigs, known);
    }

    /** The app's settings that a client of this kind knows: bootstrap servers, security, timeouts. */
    private static Map<String, Object> clientConfigs(final Map<String, Object> appConfigs, final Set<String> known) {
        final Map<String, Object> config = new HashMap<>();
        appConfigs.forEach((name, value) -> {
            if (known.contains(name) && value != null) {
                config.put(name, value);
            }
        });
        return config;
    }
}
