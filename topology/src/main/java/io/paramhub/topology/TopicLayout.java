package io.paramhub.topology;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Name, partition count, cleanup policy and retention of a topic to create, and whether the broker stamps its
 * records with its own time ({@code message.timestamp.type=LogAppendTime}) instead of keeping the producers'.
 * A compacted topic keeps the newest record of each key for ever ({@link TopicRetention#UNLIMITED}, not
 * written to the topic). {@code maxMessageBytes} raises the largest record the topic takes above the broker's
 * {@code message.max.bytes}; 0 keeps the broker's.
 */
public record TopicLayout(
        String name,
        int partitions,
        String cleanupPolicy,
        TopicRetention retention,
        boolean brokerTimestamps,
        int maxMessageBytes) {

    public TopicLayout(
            final String name, final int partitions, final String cleanupPolicy, final TopicRetention retention) {
        this(name, partitions, cleanupPolicy, retention, false, 0);
    }

    public static TopicLayout compacted(final String name, final int partitions) {
        return new TopicLayout(name, partitions, TopicConfig.CLEANUP_POLICY_COMPACT, TopicRetention.UNLIMITED);
    }

    public static TopicLayout deleted(final String name, final int partitions, final TopicRetention retention) {
        return new TopicLayout(name, partitions, TopicConfig.CLEANUP_POLICY_DELETE, retention);
    }

    public boolean isCompacted() {
        return TopicConfig.CLEANUP_POLICY_COMPACT.equals(cleanupPolicy);
    }

    /** The topic configs to create it with, under {@code replication}. */
    public Map<String, String> configs(final TopicReplication replication) {
        final Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, cleanupPolicy);
        if (!isCompacted()) {
            configs.putAll(retention.configs());
        }
        if (brokerTimestamps) {
            configs.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
        }
        if (maxMessageBytes > 0) {
            configs.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(maxMessageBytes));
        }
        if (!replication.brokerMinInSyncReplicas()) {
            configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(replication.minInSyncReplicas()));
        }
        return configs;
    }

    /** This layout with records stamped by the broker, so that no producer can date a record as it likes. */
    public TopicLayout withBrokerTimestamps() {
        return new TopicLayout(name, partitions, cleanupPolicy, retention, true, maxMessageBytes);
    }

    /** This layout taking records of up to {@code bytes}, whatever the broker's {@code message.max.bytes}. */
    public TopicLayout withMaxMessageBytes(final int bytes) {
        return new TopicLayout(name, partitions, cleanupPolicy, retention, brokerTimestamps, bytes);
    }
}
