package io.paramhub.launcher;

import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Option;

/**
 * The command-line options every ParamHub Streams app shares (a picocli mixin): where Kafka and the
 * registry are, the application id, topics, state directory, and settings layered as: the
 * {@code --config} file, then {@code -D key=value}, then these options.
 */
public final class StreamsAppOptions {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers.")
    private String bootstrapServers;

    @Option(names = "--registry-url", required = true, description = "Schema registry URL (Confluent API).")
    private String registryUrl;

    @Option(names = "--application-id", description = "Kafka Streams application.id (default: the app's own, "
        + "paramhub-aggregator or paramhub-orchestrator).")
    private String applicationId;

    @Option(names = "--topic-prefix", defaultValue = TopicCatalog.DEFAULT_PREFIX,
        description = "Prefix of every topic name (default: ${DEFAULT-VALUE}).")
    private String topicPrefix;

    @Option(names = "--state-dir", description = "Kafka Streams state directory.")
    private Path stateDir;

    @Option(names = "--config", description = "A properties file of Kafka Streams and client settings.")
    private Path configFile;

    @Option(names = "-D", description = "A Kafka Streams or client setting, key=value (repeatable).")
    private Map<String, String> overrides = Map.of();

    @Option(names = "--no-create-topics", negatable = true, defaultValue = "true",
        description = "Create missing topics (default: ${DEFAULT-VALUE}).")
    private boolean createTopics;

    @Option(names = "--shard-partitions", defaultValue = "" + TopicSetup.DEFAULT_SHARD_PARTITIONS,
        description = "Partitions of gradients, model and the shard topics when created (default: ${DEFAULT-VALUE}).")
    private int shardPartitions;

    @Option(names = "--replication-factor", defaultValue = "-1",
        description = "Replication factor of created topics; -1 = the broker default (default: ${DEFAULT-VALUE}).")
    private short replicationFactor;

    /** The app's settings, layered as the class comment says. */
    public Properties properties(final String defaultApplicationId) throws IOException {
        final Properties props = ConfigFiles.load(configFile, overrides);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId != null ? applicationId : defaultApplicationId);
        if (stateDir != null) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        return props;
    }

    public String topicPrefix() {
        return topicPrefix;
    }

    public TopicSetup topicSetup() {
        return new TopicSetup(createTopics, shardPartitions, TopicSetup.defaults().otherPartitions(), replicationFactor);
    }
}
