package io.paramhub.topology;

/** Name, partition count and cleanup policy of a topic to create. */
public record TopicLayout(String name, int partitions, String cleanupPolicy) {

    public static TopicLayout compacted(final String name, final int partitions) {
        return new TopicLayout(name, partitions, "compact");
    }

    public static TopicLayout deleted(final String name, final int partitions) {
        return new TopicLayout(name, partitions, "delete");
    }
}
