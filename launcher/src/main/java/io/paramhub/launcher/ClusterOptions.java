package io.paramhub.launcher;

import io.paramhub.topology.TopicCatalog;
import picocli.CommandLine.Option;

/**
 * Where a command finds its cluster (a picocli mixin): {@code --bootstrap-servers}, {@code --registry-url} and
 * {@code --topic-prefix}. The apps take them through {@link KafkaOptions}, which layers them with the
 * environment and the {@code --config} file and requires the first two; the {@code paramhub} command's
 * subcommands take them directly, where no cluster given means an embedded one.
 *
 * <p>The descriptions here are the apps'. A command that words an option otherwise (the {@code paramhub}
 * command: "use this Kafka cluster instead of an embedded broker") gives its own text in its picocli resource
 * bundle, under the option's name without dashes ({@code bootstrap-servers}), or qualified by the command
 * ({@code paramhub.record.bootstrap-servers}).
 */
public final class ClusterOptions {

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers: bootstrap.servers, env KAFKA_BOOTSTRAP_SERVERS. Required.")
    private String bootstrapServers;

    @Option(
            names = "--registry-url",
            paramLabel = "URL",
            description = "Schema registry URL (Confluent API): schema.registry.url, env KAFKA_SCHEMA_REGISTRY_URL. "
                    + "Required.")
    private String registryUrl;

    @Option(
            names = "--topic-prefix",
            description = "Prefix of every topic name (default: " + TopicCatalog.DEFAULT_PREFIX + ").")
    private String topicPrefix;

    /** {@code --bootstrap-servers}, or null when not given. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** {@code --registry-url}, or null when not given. */
    public String registryUrl() {
        return registryUrl;
    }

    /** {@code --topic-prefix}, or {@link TopicCatalog#DEFAULT_PREFIX} when not given. */
    public String topicPrefix() {
        return topicPrefix != null ? topicPrefix : TopicCatalog.DEFAULT_PREFIX;
    }

    /** {@code --topic-prefix}, or null when not given (for a command whose default is not the usual prefix). */
    public String givenTopicPrefix() {
        return topicPrefix;
    }
}
