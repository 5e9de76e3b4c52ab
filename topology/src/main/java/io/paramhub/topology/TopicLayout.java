package io.paramhub.topology;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Name, partition count, cleanup policy and retention of a topic to create. A compacted topic keeps the
 * newest record of each key for ever ({@link TopicRetention#UNLIMITED}, not written to the topic).
 */
public record TopicLayout(String name, int partitions, String cleanupPolicy, TopicRetention retention) {

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
        if (!replication.brokerMinInSyncReplicas()) {
            configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(replication.minInSyncReplicas()));
        }
        return configs;
    }
}
