package io.paramhub.embedded;

import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.ClusterOptions;
import io.paramhub.launcher.Settings;
import io.paramhub.topology.StreamsProperties;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where a {@code paramhub} command finds its cluster and how it connects (a picocli mixin): {@link ClusterOptions},
 * a {@code --config} properties file and {@code -D} settings, layered as {@link Settings#kafka} says (the file,
 * then {@code KAFKA_*} variables, then {@code -D}, then {@code --bootstrap-servers} and {@code --registry-url}).
 * Every setting reaches every client unchanged: Kafka's ({@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}) and the registry client's ({@code basic.auth.*}, {@code schema.registry.ssl.*}, ...).
 */
public final class ConnectionOptions {

    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file of Kafka client and schema registry client settings under their own "
                    + "names (bootstrap.servers, security.protocol, sasl.jaas.config, ssl.truststore.location, "
                    + "schema.registry.url, basic.auth.user.info, ...), given to every client of the cluster; "
                    + "KAFKA_* variables, -D and the options win over it.")
    private Path configFile;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "A Kafka client or schema registry client setting (repeatable); wins over --config and "
                    + "KAFKA_* variables.")
    private Map<String, String> overrides = new HashMap<>();

    /** The layered settings, with the environment of this process. */
    public Properties settings() {
        return settings(System.getenv());
    }

    /** The layered settings, with {@code env} as the environment. */
    public Properties settings(final Map<String, String> env) {
        final Map<String, String> options = new LinkedHashMap<>();
        options.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        options.put(StreamsProperties.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        return Settings.kafka(AppCommandLine.load(configFile), env, overrides, options, Set.of());
    }

    /** {@code bootstrap.servers} from any layer, or null when none gives it (an embedded broker then). */
    public String bootstrapServers() {
        return settings().getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    }

    public String topicPrefix() {
        return cluster.topicPrefix();
    }

    /** {@code --topic-prefix}, or null when not given. */
    public String givenTopicPrefix() {
        return cluster.givenTopicPrefix();
    }
}
