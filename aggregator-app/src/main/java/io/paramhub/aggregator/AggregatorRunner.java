package io.paramhub.aggregator;

import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.RetentionCheck;
import io.paramhub.topology.aggregator.AggregatorMetrics;
import io.paramhub.topology.aggregator.AggregatorTopology;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * Builds and runs the aggregator topology: {@code jobs} and {@code gradients} in, {@code model}
 * and {@code dead-letters} out. Checks the topics first and can create the missing ones, then refuses to start
 * when the retention of {@code gradients}, {@code model} or its changelogs is too short to restore from
 * ({@link RetentionCheck}; a warning with {@code --accept-short-retention}).
 */
public final class AggregatorRunner implements AutoCloseable {

    public static final String DEFAULT_APPLICATION_ID = "paramhub-aggregator";
    /** Port of the HTTP endpoint when none is given. */
    public static final int DEFAULT_HTTP_PORT = 8090;

    private final KafkaStreams streams;

    private AggregatorRunner(final KafkaStreams streams) {
        this.streams = streams;
    }

    /**
     * Starts an aggregator. {@code given} holds at least {@code bootstrap.servers} and
     * {@code schema.registry.url}; anything else overrides ParamHub's Streams defaults.
     */
    public static AggregatorRunner start(
            final Properties given, final String topicPrefix, final TopicSetup topicSetup) {
        return start(given, topicPrefix, topicSetup, AggregatorMetrics.unregistered());
    }

    /** As {@link #start(Properties, String, TopicSetup)}, recording into {@code metrics}. */
    public static AggregatorRunner start(
            final Properties given,
            final String topicPrefix,
            final TopicSetup topicSetup,
            final AggregatorMetrics metrics) {
        final Properties settings = new Properties();
        settings.putAll(given);
        // a shard task reads four partitions and three are nearly always empty; with the default (0) Kafka
        // Streams formats a trace message for each empty one on every process attempt, a third of the stream
        // thread's CPU in a round (JFR). The engine does not rely on the order of records across them.
        settings.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // refused here, before anything connects, rather than by each shard task as it starts
        AggregatorTopology.snapshotEveryClocks(settings);
        final StreamsAppLauncher.Prepared prepared = StreamsAppLauncher.prepare(
                DEFAULT_APPLICATION_ID, settings, topicPrefix, topicSetup, (provisioner, topics) -> {
                    provisioner.commonPartitionCount(topics.coPartitioned());
                    if (provisioner.commonPartitionCount(topics.control()) != 1) {
                        throw new IllegalStateException("topics " + topics.control() + " must have exactly one "
                                + "partition, so that one task sees a job and all of its workers");
                    }
                });
        try (Admin admin = Admin.create(StreamsAppLauncher.connection(prepared.properties()))) {
            new RetentionCheck(admin)
                    .enforce(
                            prepared.topics(),
                            String.valueOf(prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG)),
                            topicSetup.acceptShortRetention());
        }
        final Topology topology = AggregatorTopology.build(prepared.topics(), prepared.serdes(), metrics);
        return new AggregatorRunner(StreamsAppLauncher.start(prepared, topology));
    }

    public KafkaStreams streams() {
        return streams;
    }

    @Override
    public void close() {
        // a deliberate stop leaves the group, so that the shards move to the other instances at once
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    }
}
