package io.paramhub.testing;

import io.paramhub.topology.PartitionLeaders;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real KRaft cluster inside the test JVM, built with Kafka's own {@link KafkaClusterTestKit} on the latest
 * production metadata version and feature levels: one combined broker and controller by default, or
 * {@link #start(int, Map, Map) several brokers} with one controller of their own, whose brokers can be
 * restarted ({@link #restartBroker}) or stopped for good ({@link #stopBroker}). Tuned for tests: replication
 * factors of the offsets and transaction topics as the broker count allows, no initial rebalance delay, 5
 * offsets and transaction partitions. Start one per test class: {@code @BeforeAll} {@link #start()},
 * {@code @AfterAll} {@link #close()}.
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
        return start(1, brokerOverrides, Map.of());
    }

    /**
     * Starts {@code brokers} brokers (ids 0 to {@code brokers - 1}) with {@code brokerOverrides} on top of
     * {@link #defaultBrokerSettings(int)} and {@code perBroker} settings on top of those, by broker id. One
     * broker shares its node with the controller; several have a controller node of their own (3 combined
     * controllers do not start in the test kit).
     */
    public static KafkaTestCluster start(
            final int brokers,
            final Map<String, String> brokerOverrides,
            final Map<Integer, Map<String, String>> perBroker) {
        final long started = System.nanoTime();
        final Map<String, String> settings = new HashMap<>(defaultBrokerSettings(brokers));
        settings.putAll(brokerOverrides);
        try {
            final TestKitNodes nodes = new TestKitNodes.Builder(productionBootstrap())
                    .setCombined(brokers == 1)
                    .setNumBrokerNodes(brokers)
                    .setNumControllerNodes(1)
                    .setPerServerProperties(perBroker)
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
        return defaultBrokerSettings(1);
    }

    /**
     * Broker settings of a cluster of {@code brokers} brokers: the offsets and transaction topics, and
     * topics created with the broker's default, replicated min(3, brokers) times with
     * {@code min.insync.replicas} min(2, replicas).
     */
    public static Map<String, String> defaultBrokerSettings(final int brokers) {
        final String replicas = Integer.toString(Math.min(3, brokers));
        final String minInSync = Integer.toString(Math.min(2, brokers));
        return Map.of(
                "offsets.topic.replication.factor", replicas,
                "offsets.topic.num.partitions", "5",
                "transaction.state.log.replication.factor", replicas,
                "transaction.state.log.min.isr", minInSync,
                "transaction.state.log.num.partitions", "5",
                "default.replication.factor", replicas,
                "min.insync.replicas", minInSync,
                "group.initial.rebalance.delay.ms", "0",
                "add.partitions.to.txn.retry.backoff.ms", "1");
    }

    /** The ids of the brokers, running or not. */
    public Set<Integer> brokerIds() {
        return new TreeSet<>(cluster.brokers().keySet());
    }

    /**
     * Stops broker {@code id} (a controlled shutdown unless its {@code controlled.shutdown.enable} is false,
     * then the controller learns of it only when its session times out) and starts it again on the same log
     * directories. Returns once it has started; its replicas catch up after that.
     */
    public void restartBroker(final int id) {
        final BrokerServer broker = broker(id);
        log.info("restarting broker {}", id);
        broker.shutdown();
        broker.startup();
        log.info("broker {} started again", id);
    }

    /** Whether every partition of every topic has all its replicas in sync (false while a broker is down). */
    public boolean replicasInSync() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            final Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                    .names()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return admin
                    .describeTopics(names)
                    .allTopicNames()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .values()
                    .stream()
                    .flatMap(topic -> topic.partitions().stream())
                    .allMatch(partition ->
                            partition.isr().size() == partition.replicas().size());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted describing topics", e);
        } catch (final ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Stops broker {@code id} for good, as {@link #restartBroker} stops it. */
    public void stopBroker(final int id) {
        log.info("stopping broker {}", id);
        broker(id).shutdown();
    }

    private BrokerServer broker(final int id) {
        final BrokerServer broker = cluster.brokers().get(id);
        if (broker == null) {
            throw new IllegalArgumentException("no broker " + id + ", brokers: " + brokerIds());
        }
        return broker;
    }

    /** The {@code bootstrap.servers} of the cluster's broker. */
    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates {@code name} with {@code partitions} partitions, replication factor 1. */
    public void createTopic(final String name, final int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /**
     * Creates {@code name} with {@code partitions} partitions, replication factor 1 and topic {@code configs};
     * returns once its leaders serve it, so that a producer's first batch is not refused.
     */
    public void createTopic(final String name, final int partitions, final Map<String, String> configs) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                    .all()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            PartitionLeaders.awaitServing(admin, List.of(name), ADMIN_TIMEOUT);
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
