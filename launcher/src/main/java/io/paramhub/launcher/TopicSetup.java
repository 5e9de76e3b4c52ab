package io.paramhub.launcher;

import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicProvisioner;
import io.paramhub.topology.TopicReplication;
import io.paramhub.topology.TopicRetentions;
import org.apache.kafka.clients.admin.Admin;

/**
 * Whether an app creates missing topics, and how: partitions of the shard-keyed topics
 * ({@code gradients}, {@code model}, {@code shard-jobs}), of the others, their replication (also that of
 * the Streams app's internal topics), and whether the aggregator only warns about a retention too short to
 * restore from ({@code --accept-short-retention}) instead of refusing to start, and whether an app only warns about
 * a topic that drifted from what ParamHub expects ({@code --accept-topic-drift}, {@code TopicCheck}).
 */
public record TopicSetup(
        boolean create,
        int shardPartitions,
        int otherPartitions,
        TopicReplication replication,
        boolean acceptShortRetention,
        boolean acceptTopicDrift) {

    public static final int DEFAULT_SHARD_PARTITIONS = 8;

    /** Created when missing, 8 and 4 partitions, the broker's replication, short retention and drift refused. */
    public static TopicSetup defaults() {
        return new TopicSetup(true, DEFAULT_SHARD_PARTITIONS, 4, TopicReplication.BROKER_DEFAULTS, false, false);
    }

    /**
     * Creates what is missing of {@code topics} as this setup lays them out, with {@code retentions}, and waits until
     * their leaders serve them; nothing when the setup does not create.
     */
    public void provision(final Admin admin, final TopicCatalog topics, final TopicRetentions retentions) {
        if (create) {
            new TopicProvisioner(admin)
                    .ensure(topics.layouts(shardPartitions, otherPartitions, retentions), replication);
        }
    }

    /** The same setup with {@code replication}. */
    public TopicSetup withReplication(final TopicReplication replication) {
        return new TopicSetup(
                create, shardPartitions, otherPartitions, replication, acceptShortRetention, acceptTopicDrift);
    }

    /** The same setup, only warning about topic drift when {@code accept}. */
    public TopicSetup withAcceptTopicDrift(final boolean accept) {
        return new TopicSetup(create, shardPartitions, otherPartitions, replication, acceptShortRetention, accept);
    }
}
