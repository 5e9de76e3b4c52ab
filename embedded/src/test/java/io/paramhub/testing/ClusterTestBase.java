package io.paramhub.testing;

import io.paramhub.registry.SchemaRegistryServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One real in-process KRaft broker and schema registry per integration-test class. A class that needs other
 * broker settings declares its own {@code @BeforeAll static void startCluster()}, which hides this one, and
 * calls {@link #start(Map)}.
 */
public abstract class ClusterTestBase {

    protected static KafkaTestCluster kafka;
    protected static SchemaRegistryServer registry;

    @BeforeAll
    public static void startCluster() {
        start(Map.of());
    }

    /** Starts the broker with {@code brokerOverrides} on top of the test kit's settings, then the registry. */
    protected static void start(final Map<String, String> brokerOverrides) {
        kafka = KafkaTestCluster.start(brokerOverrides);
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    }

    @AfterAll
    public static void stopCluster() {
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }
}
