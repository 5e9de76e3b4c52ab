package io.paramhub.launcher;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicProvisioner;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every ParamHub Kafka Streams app does to start, in two steps: {@link #prepare} (ParamHub's
 * Streams defaults under the given settings, the serdes and topic catalog they configure, topics
 * created when asked and checked), then {@link #start} (KafkaStreams with a thread-replacement policy
 * of at most 3 failures in 5 minutes).
 */
public final class StreamsAppLauncher {

    private static final Logger log = LoggerFactory.getLogger(StreamsAppLauncher.class);

    private StreamsAppLauncher() {
    }

    /** The settings, serdes and topics an app's topology is built from. */
    public record Prepared(Properties properties, SerdeFactory serdes, TopicCatalog topics) {
    }

    /**
     * {@code given} holds at least {@code bootstrap.servers} and {@code schema.registry.url}; anything
     * else overrides ParamHub's Streams defaults. {@code checks} may refuse the topics as they are.
     */
    public static Prepared prepare(final String defaultApplicationId, final Properties given, final String topicPrefix,
                                   final TopicSetup topicSetup,
                                   final BiConsumer<TopicProvisioner, TopicCatalog> checks) {
        final Properties props = StreamsProperties.withDefaults(defaultApplicationId, given);
        requireSetting(props, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
        requireSetting(props, StreamsProperties.SCHEMA_REGISTRY_URL);
        final SerdeFactory serdes = new SerdeFactory(registryConfig(props));
        final TopicCatalog topics = TopicCatalog.create(topicPrefix, serdes);
        // where Streams' own error handlers (poison pills) write their dead letters
        props.put(StreamsProperties.DEAD_LETTER_TOPIC, topics.deadLetters().name());
        try (Admin admin = Admin.create(adminConfig(props))) {
            final TopicProvisioner provisioner = new TopicProvisioner(admin);
            if (topicSetup.create()) {
                provisioner.ensure(topics.layouts(topicSetup.shardPartitions(), topicSetup.otherPartitions()),
                    topicSetup.replicationFactor());
            }
            checks.accept(provisioner, topics);
        }
        return new Prepared(props, serdes, topics);
    }

    /** Starts {@code topology} with the prepared settings; the caller closes the result. */
    public static KafkaStreams start(final Prepared prepared, final Topology topology) {
        log.debug("topology of {}:\n{}", prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG),
            topology.describe());
        final KafkaStreams streams = new KafkaStreams(topology, prepared.properties());
        streams.setUncaughtExceptionHandler(new BoundedThreadReplacement(3, Duration.ofMinutes(5)));
        streams.start();
        log.info("{} started against {}", prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG),
            prepared.properties().get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        return streams;
    }

    /**
     * Blocks until SIGTERM (then runs {@code close}, which must close {@code streams}) or until
     * {@code streams} stops by itself; returns the process exit code.
     */
    public static int runUntilStopped(final KafkaStreams streams, final Runnable close) throws InterruptedException {
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            close.run();
            stopped.countDown();
        }, "paramhub-shutdown"));
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
            throw new IllegalArgumentException("missing setting " + name);
        }
    }

    private static Map<String, Object> registryConfig(final Properties props) {
        final Map<String, Object> config = new HashMap<>();
        props.forEach((key, value) -> {
            if (key.toString().startsWith("schema.registry.") || key.toString().startsWith("basic.auth.")
                || key.toString().equals("auto.register.schemas")) {
                config.put(key.toString(), value);
            }
        });
        return config;
    }

    private static Properties adminConfig(final Properties props) {
        final Properties admin = new Properties();
        props.forEach((key, value) -> {
            final String name = key.toString();
            if (name.equals(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG) || name.startsWith("security.")
                || name.startsWith("sasl.") || name.startsWith("ssl.")) {
                admin.put(name, value);
            }
        });
        return admin;
    }
}
