package io.paramhub.launcher;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicCheck;
import io.paramhub.topology.TopicProvisioner;
import io.paramhub.topology.TopicReplication;
import io.paramhub.topology.TopicRetentions;
import io.paramhub.topology.errors.DeadLetterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every ParamHub Kafka Streams app does to start, in two steps: {@link #prepare} (ParamHub's Streams
 * defaults under the given settings, which must keep exactly-once ({@link ExactlyOnce}); the serdes and topic
 * catalog they configure; topics created when asked; the app's own topics checked by {@link TopicCheck}), then
 * {@link #start} (KafkaStreams with a thread-replacement policy of at most 3 failures in 5 minutes).
 */
public final class StreamsAppLauncher {

    private static final Logger log = LoggerFactory.getLogger(StreamsAppLauncher.class);
    /** Stream thread failures replaced within {@link #THREAD_FAILURE_WINDOW}; one more shuts the client down. */
    public static final int MAX_THREAD_FAILURES = 3;

    public static final Duration THREAD_FAILURE_WINDOW = Duration.ofMinutes(5);
    /** What an app logs once a SIGTERM has stopped it cleanly (it then exits with 143, 128 + SIGTERM). */
    public static final String SHUT_DOWN_CLEANLY = "shut down cleanly";

    private StreamsAppLauncher() {}

    /** The settings, serdes and topics an app's topology is built from. */
    public record Prepared(Properties properties, SerdeFactory serdes, TopicCatalog topics) {}

    /**
     * {@code given} holds at least {@code bootstrap.servers} and {@code schema.registry.url}; anything
     * else overrides ParamHub's Streams defaults. The topics the app {@code uses} are checked with
     * {@link TopicCheck}, and {@code checks} may refuse the topics as they are.
     */
    public static Prepared prepare(
            final String defaultApplicationId,
            final Properties given,
            final String topicPrefix,
            final TopicSetup topicSetup,
            final Function<TopicCatalog, List<Topic<String, ?>>> uses,
            final BiConsumer<TopicProvisioner, TopicCatalog> checks) {
        // ready before the first rebalance opens the app's first persistent store
        RocksDbLibrary.loadInBackground();
        final Properties props = settings(defaultApplicationId, given);
        replicateInternalTopics(props, topicSetup.replication());
        final TopicRetentions retentions = TopicRetentions.from(props);
        final SerdeFactory serdes = SerdeFactory.fromSettings(props);
        final TopicCatalog topics = TopicCatalog.create(topicPrefix, serdes);
        // where Streams' own error handlers (poison pills) write their dead letters
        props.put(DeadLetterSettings.TOPIC, topics.deadLetters().name());
        try (Admin admin = Admin.create(adminConfig(props))) {
            topicSetup.provision(admin, topics, retentions);
            new TopicCheck(admin, String.valueOf(props.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)))
                    .enforce(
                            topics.expectations(uses.apply(topics), topicSetup.replication()),
                            topicSetup.acceptTopicDrift());
            checks.accept(new TopicProvisioner(admin), topics);
        }
        return new Prepared(props, serdes, topics);
    }

    /**
     * The Streams app's internal topics (changelogs, repartition topics) replicated as ParamHub's own:
     * {@code replication.factor} and {@code topic.min.insync.replicas}, unless {@code props} sets them.
     */
    static void replicateInternalTopics(final Properties props, final TopicReplication replication) {
        if (!replication.brokerFactor()) {
            props.putIfAbsent(StreamsConfig.REPLICATION_FACTOR_CONFIG, Short.toString(replication.factor()));
        }
        if (!replication.brokerMinInSyncReplicas()) {
            props.putIfAbsent(
                    StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                    Integer.toString(replication.minInSyncReplicas()));
        }
    }

    /**
     * ParamHub's Streams defaults under {@code given}, checked: fails with a {@link SettingException} naming a
     * missing {@code bootstrap.servers} or {@code schema.registry.url} or a guarantee weaker than exactly-once
     * ({@link ExactlyOnce}), and with Kafka's {@code ConfigException} naming a malformed setting, before anything
     * connects.
     */
    public static Properties settings(final String defaultApplicationId, final Properties given) {
        final Properties props = StreamsProperties.withDefaults(defaultApplicationId, given);
        requireSetting(props, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
        requireSetting(props, StreamsProperties.SCHEMA_REGISTRY_URL);
        final StreamsConfig config = new StreamsConfig(props);
        // and the settings of the clients Streams will create, as they will see them
        final Map<String, Object> producer = new HashMap<>(config.getProducerConfigs("validation"));
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        new ProducerConfig(producer);
        final Map<String, Object> consumer =
                new HashMap<>(config.getMainConsumerConfigs("validation", "validation", 0));
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        new ConsumerConfig(consumer);
        new AdminClientConfig(config.getAdminConfigs("validation"));
        ExactlyOnce.require(props);
        return props;
    }

    /** Starts {@code topology} with the prepared settings; the caller closes the result. */
    public static KafkaStreams start(final Prepared prepared, final Topology topology) {
        return start(prepared, topology, null);
    }

    /** As {@link #start(Prepared, Topology)}, with Kafka clients from {@code clients} (null: Kafka Streams' own). */
    public static KafkaStreams start(
            final Prepared prepared, final Topology topology, final KafkaClientSupplier clients) {
        log.debug(
                "topology of {}:\n{}",
                prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG),
                topology.describe());
        final KafkaStreams streams = clients == null
                ? new KafkaStreams(topology, prepared.properties())
                : new KafkaStreams(topology, prepared.properties(), clients);
        streams.setUncaughtExceptionHandler(new BoundedThreadReplacement(MAX_THREAD_FAILURES, THREAD_FAILURE_WINDOW));
        streams.start();
        log.info(
                "{} started against {}",
                prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG),
                prepared.properties().get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        return streams;
    }

    /**
     * Blocks until SIGTERM (then runs {@code close}, which must close {@code streams}) or until
     * {@code streams} stops by itself; returns the process exit code.
     */
    public static int runUntilStopped(final KafkaStreams streams, final Runnable close) throws InterruptedException {
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            close.run();
                            log.info(SHUT_DOWN_CLEANLY);
                            stopped.countDown();
                        },
                        "paramhub-shutdown"));
        while (!stopped.await(1, TimeUnit.SECONDS)) {
            final KafkaStreams.State state = streams.state();
            if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
                log.error("Kafka Streams stopped in state {}", state);
                return 1;
            }
        }
        return 0;
    }

    private static void requireSetting(final Properties props, final String name) {
        final Object value = props.get(name);
        if (value == null || value.toString().isBlank()) {
            throw new SettingException(name, "missing setting " + name);
        }
    }

    /**
     * Runs {@code work} on this thread and returns its exit code; on SIGTERM (or any JVM shutdown) runs
     * {@code stop} and waits up to {@code grace} for {@code work} to finish, so that it can end cleanly.
     */
    public static int runUntilDone(final Callable<Integer> work, final Runnable stop, final Duration grace)
            throws Exception {
        final CountDownLatch done = new CountDownLatch(1);
        final Thread hook = new Thread(
                () -> {
                    stop.run();
                    try {
                        if (done.await(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                            log.info(SHUT_DOWN_CLEANLY);
                        } else {
                            log.warn("did not stop within {}", grace);
                        }
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "paramhub-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return work.call();
        } finally {
            done.countDown();
        }
    }

    /**
     * The settings a plain client of the app's cluster needs from {@code props}: {@code bootstrap.servers}
     * and the {@code security.*}, {@code sasl.*} and {@code ssl.*} ones.
     */
    public static Properties connection(final Properties props) {
        return adminConfig(props);
    }

    private static Properties adminConfig(final Properties props) {
        final Properties admin = new Properties();
        props.forEach((key, value) -> {
            final String name = key.toString();
            if (name.equals(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)
                    || name.startsWith("security.")
                    || name.startsWith("sasl.")
                    || name.startsWith("ssl.")) {
                admin.put(name, value);
            }
        });
        return admin;
    }
}
