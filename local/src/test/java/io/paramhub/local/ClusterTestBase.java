package io.paramhub.local;

import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.KafkaTestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One real in-process KRaft broker and schema registry per integration-test class. */
abstract class ClusterTestBase {

    static KafkaTestCluster kafka;
    static SchemaRegistryServer registry;

    @BeforeAll
    static void startCluster() {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    }

    @AfterAll
    static void stopCluster() {
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }
}
