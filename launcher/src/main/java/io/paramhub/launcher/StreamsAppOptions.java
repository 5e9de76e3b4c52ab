package io.paramhub.launcher;

import io.paramhub.topology.RetentionCheck;
import io.paramhub.topology.TopicCheck;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of ParamHub's Kafka Streams apps on top of {@link KafkaOptions} (a picocli mixin): the
 * application id, the state directory and how topics are created. Settings are layered as {@link Settings}
 * says.
 */
public final class StreamsAppOptions {

    @Option(
            names = "--application-id",
            description = "Kafka Streams application.id, env KAFKA_APPLICATION_ID "
                    + "(default: the app's own, paramhub-aggregator or paramhub-orchestrator).")
    private String applicationId;

    @Option(names = "--state-dir", description = "Kafka Streams state directory: state.dir, env KAFKA_STATE_DIR.")
    private Path stateDir;

    @Mixin
    private TopicCreationOptions topicCreation;

    @Option(
            names = RetentionCheck.ACCEPT_OPTION,
            description = "Start the aggregator even when the retention of gradients, model or its changelogs is "
                    + "too short to restore from: warn instead of refusing.")
    private boolean acceptShortRetention;

    @Option(
            names = TopicCheck.ACCEPT_OPTION,
            description = "Start even when a ParamHub topic drifted from what ParamHub needs (cleanup policy, "
                    + "replication, min.insync.replicas, max.message.bytes): warn instead of refusing.")
    private boolean acceptTopicDrift;

    /** The app's Kafka settings, layered as {@link Settings} says, with {@code defaultApplicationId} below all. */
    public Properties properties(final KafkaOptions kafka, final String defaultApplicationId) {
        final Map<String, String> options = new HashMap<>();
        options.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        options.put(StreamsConfig.STATE_DIR_CONFIG, stateDir == null ? null : stateDir.toString());
        final Properties props = kafka.properties(options);
        props.putIfAbsent(StreamsConfig.APPLICATION_ID_CONFIG, defaultApplicationId);
        return props;
    }

    public TopicSetup topicSetup() {
        return topicCreation.topicSetup(acceptShortRetention).withAcceptTopicDrift(acceptTopicDrift);
    }
}
