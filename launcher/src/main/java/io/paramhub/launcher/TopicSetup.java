package io.paramhub.launcher;

/**
 * Whether an app creates missing topics, and how: partitions of the shard-keyed topics
 * ({@code gradients}, {@code model}, {@code shard-jobs}), of the others, and the replication factor
 * (below 1: the broker's default).
 */
public record TopicSetup(boolean create, int shardPartitions, int otherPartitions, short replicationFactor) {

    public static final int DEFAULT_SHARD_PARTITIONS = 8;

    public static TopicSetup defaults() {
        return new TopicSetup(true, DEFAULT_SHARD_PARTITIONS, 4, (short) -1);
    }
}
