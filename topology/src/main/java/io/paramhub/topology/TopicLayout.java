package io.paramhub.topology;

/**
 * Name, partition count and cleanup policy of a topic to create, and whether the broker stamps its records
 * with its own time ({@code message.timestamp.type=LogAppendTime}) instead of keeping the producers'.
 */
public record TopicLayout(String name, int partitions, String cleanupPolicy, boolean brokerTimestamps) {

    public TopicLayout(final String name, final int partitions, final String cleanupPolicy) {
        this(name, partitions, cleanupPolicy, false);
    }

    public static TopicLayout compacted(final String name, final int partitions) {
        return new TopicLayout(name, partitions, "compact");
    }

    public static TopicLayout deleted(final String name, final int partitions) {
        return new TopicLayout(name, partitions, "delete");
    }

    /** This layout with records stamped by the broker, so that no producer can date a record as it likes. */
    public TopicLayout withBrokerTimestamps() {
        return new TopicLayout(name, partitions, cleanupPolicy, true);
    }
}
