package io.paramhub.local;

import io.paramhub.topology.StreamsProperties;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The settings the {@code paramhub} command gives the clients and Streams apps it runs itself: where the
 * cluster and the schema registry are, and nothing else (ParamHub's own defaults do the rest).
 */
public final class KafkaConnection {

    private KafkaConnection() {}

    /** A client's settings: {@code bootstrap.servers}. */
    public static Properties client(final String bootstrapServers) {
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return client;
    }

    /** A Streams app's settings: {@code bootstrap.servers} and {@code schema.registry.url}. */
    public static Properties streams(final String bootstrapServers, final String registryUrl) {
        final Properties streams = client(bootstrapServers);
        streams.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        return streams;
    }

    /** As {@link #streams(String, String)}, with its {@code application.id} and {@code state.dir}. */
    public static Properties streams(
            final String bootstrapServers, final String registryUrl, final String applicationId, final Path stateDir) {
        final Properties streams = streams(bootstrapServers, registryUrl);
        streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return streams;
    }
}
