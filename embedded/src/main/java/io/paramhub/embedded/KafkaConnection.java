package io.paramhub.embedded;

import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How the {@code paramhub} command's clients and Streams apps reach a cluster: {@code bootstrap.servers},
 * {@code schema.registry.url} and every other setting the user gave ({@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}, the registry client's {@code basic.auth.*}, ...), handed to each client unchanged. ParamHub's
 * own defaults do the rest.
 */
public final class KafkaConnection {

    private final Properties settings;
    /** One registry client scope for the connection: its serdes share what they learn from the registry. */
    private final SerdeFactory serdes;

    private KafkaConnection(final Properties settings) {
        this.settings = settings;
        this.serdes = SerdeFactory.fromSettings(settings);
    }

    /** A cluster reached with {@code bootstrap.servers} and {@code schema.registry.url} alone. */
    public static KafkaConnection plain(final String bootstrapServers, final String registryUrl) {
        final Properties settings = new Properties();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        return new KafkaConnection(settings);
    }

    /** A cluster reached with {@code settings}, which hold {@code bootstrap.servers} and {@code schema.registry.url}. */
    public static KafkaConnection of(final Properties settings) {
        for (final String key :
                new String[] {CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, StreamsProperties.SCHEMA_REGISTRY_URL}) {
            if (settings.getProperty(key) == null) {
                throw new IllegalArgumentException("missing setting " + key);
            }
        }
        final Properties copy = new Properties();
        copy.putAll(settings);
        return new KafkaConnection(copy);
    }

    public String bootstrapServers() {
        return settings.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    }

    public String registryUrl() {
        return settings.getProperty(StreamsProperties.SCHEMA_REGISTRY_URL);
    }

    /** A plain client's settings: all of them less the schema registry client's. */
    public Properties client() {
        return ClientProperties.withoutRegistrySettings(settings);
    }

    /** A Streams app's settings: all of them (its serdes take the registry client's). */
    public Properties streams() {
        final Properties streams = new Properties();
        streams.putAll(settings);
        return streams;
    }

    /** As {@link #streams()}, with its {@code application.id} and {@code state.dir}. */
    public Properties streams(final String applicationId, final Path stateDir) {
        final Properties streams = streams();
        streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return streams;
    }

    /** Serdes on this cluster's registry, configured with the registry client's settings. */
    public SerdeFactory serdes() {
        return serdes;
    }

    /** The topics under {@code prefix}, with {@link #serdes()}. */
    public TopicCatalog topics(final String prefix) {
        return TopicCatalog.create(prefix, serdes());
    }
}
