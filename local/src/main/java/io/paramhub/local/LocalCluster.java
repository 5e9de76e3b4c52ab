package io.paramhub.local;

import io.paramhub.registry.SchemaRegistryServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a run's Kafka and schema registry are: the ones the user named, or embedded ones started
 * in this JVM (a KRaft broker on a temporary directory and a registry on a free port).
 */
public final class LocalCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);

    private final String bootstrapServers;
    private final String registryUrl;
    private final EmbeddedKafka kafka;
    private final SchemaRegistryServer registry;

    private LocalCluster(
            final String bootstrapServers,
            final String registryUrl,
            final EmbeddedKafka kafka,
            final SchemaRegistryServer registry) {
        this.bootstrapServers = bootstrapServers;
        this.registryUrl = registryUrl;
        this.kafka = kafka;
        this.registry = registry;
    }

    /** Uses what is given; starts an embedded broker when {@code bootstrapServers} is null, a registry when {@code registryUrl} is. */
    public static LocalCluster startOrConnect(final String bootstrapServers, final String registryUrl) {
        EmbeddedKafka kafka = null;
        SchemaRegistryServer registry = null;
        try {
            String bootstrap = bootstrapServers;
            if (bootstrap == null) {
                kafka = EmbeddedKafka.startTemporary();
                bootstrap = kafka.bootstrapServers();
            }
            String url = registryUrl;
            if (url == null) {
                registry = SchemaRegistryServer.start(bootstrap, "127.0.0.1", 0);
                url = registry.url();
                log.info("embedded schema registry at {}", url);
            }
            return new LocalCluster(bootstrap, url, kafka, registry);
        } catch (final RuntimeException e) {
            if (registry != null) {
                registry.close();
            }
            if (kafka != null) {
                kafka.close();
            }
            throw e;
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String registryUrl() {
        return registryUrl;
    }

    public boolean embedded() {
        return kafka != null;
    }

    @Override
    public void close() {
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }
}
