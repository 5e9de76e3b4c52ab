package io.paramhub.integration;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process KRaft broker and registry of {@link ClusterTestBase} with one aggregator on them, for the test
 * class's jobs, whose workers the tests start. The aggregator registers every value schema at start-up, so that a
 * worker in another language finds them.
 */
abstract class AggregatedClusterTestBase extends ClusterTestBase {

    protected static KafkaConnection connection;
    protected static TopicCatalog topics;
    private static AggregatorRunner aggregator;

    @TempDir
    private static Path stateDir;

    @BeforeAll
    static void startAggregator() {
        connection = KafkaConnection.plain(kafka.bootstrapServers(), registry.url());
        topics = connection.topics(TopicCatalog.DEFAULT_PREFIX);
        final Properties props = connection.streams();
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        aggregator = AggregatorRunner.start(props, TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults());
    }

    @AfterAll
    static void stopAggregator() {
        if (aggregator != null) {
            aggregator.close();
        }
    }
}
