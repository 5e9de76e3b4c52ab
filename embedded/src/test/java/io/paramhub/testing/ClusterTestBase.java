package io.paramhub.testing;

import io.paramhub.registry.SchemaRegistryServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One real in-process KRaft broker and schema registry per integration-test class. */
public abstract class ClusterTestBase {

    protected static KafkaTestCluster kafka;
    protected static SchemaRegistryServer registry;

    @BeforeAll
    public static void startCluster() {
        kafka = KafkaTestCluster.start();
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
