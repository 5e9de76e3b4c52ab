package io.paramhub.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft cluster (one combined broker and controller) inside the test JVM, built with
 * Kafka's own {@link KafkaClusterTestKit} on the latest production metadata version and feature levels,
 * and tuned for one broker (replication factors 1, no initial rebalance delay, 5 offsets and transaction
 * partitions). Start one per test class: {@code @BeforeAll} {@link #start()}, {@code @AfterAll}
 * {@link #close()}.
 */
public final class KafkaTestCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaTestCluster.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaClusterTestKit cluster;

    private KafkaTestCluster(final KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** Starts a cluster with the default broker settings and waits until its broker is ready. */
    public static KafkaTestCluster start() {
        return start(Map.of());
    }

    /** Starts a cluster with {@code brokerOverrides} on top of the default broker settings. */
    public static KafkaTestCluster start(final Map<String, String> brokerOverrides) {
        final long started = System.nanoTime();
        final Map<String, String> settings = new HashMap<>(defaultBrokerSettings());
        settings.putAll(brokerOverrides);
        try {
            final TestKitNodes nodes = new TestKitNodes.Builder(productionBootstrap())
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build();
            final KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
            settings.forEach(builder::setConfigProp);
            final KafkaClusterTestKit cluster = builder.build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            log.info(
                    "Kafka test cluster ready, bootstrap: {}, in {} ms",
                    cluster.bootstrapServers(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            return new KafkaTestCluster(cluster);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted starting the Kafka test cluster", e);
        } catch (final Exception e) {
            throw new IllegalStateException("cannot start the Kafka test cluster", e);
        }
    }

    /** Broker settings of a one-node cluster; overrides given to {@link #start(Map)} win. */
    public static Map<String, String> defaultBrokerSettings() {
        return Map.of(
                "offsets.topic.replication.factor", "1",
                "offsets.topic.num.partitions", "5",
                "transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1",
                "transaction.state.log.num.partitions", "5",
                "group.initial.rebalance.delay.ms", "0",
                "add.partitions.to.txn.retry.backoff.ms", "1");
    }

    /** The {@code bootstrap.servers} of the cluster's broker. */
    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates {@code name} with {@code partitions} partitions, replication factor 1. */
    public void createTopic(final String name, final int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Creates {@code name} with {@code partitions} partitions, replication factor 1 and topic {@code configs}. */
    public void createTopic(final String name, final int partitions, final Map<String, String> configs) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                    .all()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topic " + name, e);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create topic " + name, e);
        }
    }

    /** Stops the cluster and deletes its log directories. */
    @Override
    public void close() {
        try {
            cluster.close();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted stopping the Kafka test cluster", e);
        } catch (final Exception e) {
            throw new IllegalStateException("cannot stop the Kafka test cluster", e);
        }
    }

    private static BootstrapMetadata productionBootstrap() {
        final MetadataVersion version = MetadataVersion.latestProduction();
        final Map<String, Short> featureLevels = new TreeMap<>();
        featureLevels.put(MetadataVersion.FEATURE_NAME, version.featureLevel());
        Feature.PRODUCTION_FEATURES.forEach(
                feature -> featureLevels.put(feature.featureName(), feature.defaultLevel(version)));
        return BootstrapMetadata.fromVersions(version, featureLevels, "paramhub-test");
    }
}
