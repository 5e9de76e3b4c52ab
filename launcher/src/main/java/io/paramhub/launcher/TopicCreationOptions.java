package io.paramhub.launcher;

import io.paramhub.topology.TopicReplication;
import picocli.CommandLine.Option;

/**
 * Whether and how a command creates ParamHub's missing topics (a picocli mixin): taken by the Streams apps and by
 * {@code paramhub jobs submit}, which creates them so that a job can be submitted before any app starts.
 */
public final class TopicCreationOptions {

    @Option(
            names = "--no-create-topics",
            negatable = true,
            defaultValue = "true",
            description = "Create missing topics; env PARAMHUB_CREATE_TOPICS=true|false (default: ${DEFAULT-VALUE}).")
    private boolean createTopics;

    @Option(
            names = "--shard-partitions",
            defaultValue = "" + TopicSetup.DEFAULT_SHARD_PARTITIONS,
            description =
                    "Partitions of gradients, model and the shard topics when created (default: ${DEFAULT-VALUE}).")
    private int shardPartitions;

    @Option(
            names = "--replication-factor",
            defaultValue = "-1",
            description = "Replication factor of created topics and of the Streams app's internal topics; "
                    + "-1 = the broker default (default: ${DEFAULT-VALUE}).")
    private short replicationFactor;

    @Option(
            names = "--min-insync-replicas",
            defaultValue = "-1",
            description = "min.insync.replicas of created topics and of the Streams app's internal topics; "
                    + "-1 = 2 when the replication factor is above 1, else the broker default "
                    + "(default: ${DEFAULT-VALUE}).")
    private int minInSyncReplicas;

    /** The setup these options describe; {@code acceptShortRetention} is the aggregator's own. */
    public TopicSetup topicSetup(final boolean acceptShortRetention) {
        if (shardPartitions < 1) {
            throw new SettingException(
                    "--shard-partitions", "--shard-partitions must be at least 1, not " + shardPartitions);
        }
        final TopicReplication replication;
        try {
            replication = TopicReplication.of(replicationFactor, minInSyncReplicas);
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--min-insync-replicas", e.getMessage());
        }
        return new TopicSetup(
                createTopics,
                shardPartitions,
                TopicSetup.defaults().otherPartitions(),
                replication,
                acceptShortRetention,
                false);
    }
}
