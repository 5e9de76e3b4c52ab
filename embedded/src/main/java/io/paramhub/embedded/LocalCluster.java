package io.paramhub.embedded;

import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.StreamsProperties;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a run's Kafka and schema registry are: the ones the user named, or embedded ones started
 * in this JVM (a KRaft broker on a temporary directory and a registry on a free port).
 */
public final class LocalCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);
    /** How long a fresh embedded broker may take to create its internal topics before the run goes on without. */
    private static final long WARMUP_SECONDS = 30;

    private final KafkaConnection connection;
    private final EmbeddedKafka kafka;
    private final SchemaRegistryServer registry;

    private LocalCluster(
            final KafkaConnection connection, final EmbeddedKafka kafka, final SchemaRegistryServer registry) {
        this.connection = connection;
        this.kafka = kafka;
        this.registry = registry;
    }

    /** Uses what is given; starts an embedded broker when {@code bootstrapServers} is null, a registry when {@code registryUrl} is. */
    public static LocalCluster startOrConnect(final String bootstrapServers, final String registryUrl) {
        final Properties settings = new Properties();
        if (bootstrapServers != null) {
            settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        }
        if (registryUrl != null) {
            settings.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        }
        return startOrConnect(settings);
    }

    /**
     * Connects with {@code settings} (see {@link ConnectionOptions}); starts an embedded broker when they hold no
     * {@code bootstrap.servers}, and an embedded registry, reached with the same Kafka client settings, when they
     * hold no {@code schema.registry.url}.
     */
    public static LocalCluster startOrConnect(final Properties settings) {
        EmbeddedKafka kafka = null;
        SchemaRegistryServer registry = null;
        try {
            final Properties given = new Properties();
            given.putAll(settings);
            if (given.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) == null) {
                kafka = EmbeddedKafka.startTemporary();
                given.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            }
            try (InternalTopicsWarmup warmup =
                    kafka == null ? null : InternalTopicsWarmup.start(kafka.bootstrapServers())) {
                if (given.getProperty(StreamsProperties.SCHEMA_REGISTRY_URL) == null) {
                    final Map<String, Object> registryClients = new HashMap<>();
                    ClientProperties.withoutRegistrySettings(given)
                            .forEach((key, value) -> registryClients.put(key.toString(), value));
                    registry = SchemaRegistryServer.start(registryClients, "127.0.0.1", 0);
                    given.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
                    log.info("embedded schema registry at {}", registry.url());
                }
                if (warmup != null) {
                    warmup.await(WARMUP_SECONDS);
                }
            }
            return new LocalCluster(KafkaConnection.of(given), kafka, registry);
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
        return connection.bootstrapServers();
    }

    public String registryUrl() {
        return connection.registryUrl();
    }

    /** How the run's clients reach this cluster. */
    public KafkaConnection connection() {
        return connection;
    }

    public boolean embedded() {
        return kafka != null;
    }

    /** Where the cluster is, as the commands print it first: {@code Kafka at HOST:PORT (embedded), schema registry at URL}. */
    public String describe() {
        return "Kafka at " + bootstrapServers() + (embedded() ? " (embedded)" : "") + ", schema registry at "
                + registryUrl();
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
