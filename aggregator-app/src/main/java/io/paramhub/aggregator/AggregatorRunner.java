package io.paramhub.aggregator;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicProvisioner;
import io.paramhub.topology.aggregator.AggregatorMetrics;
import io.paramhub.topology.aggregator.AggregatorTopology;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds and runs the aggregator topology: {@code jobs} and {@code gradients} in, {@code model}
 * and {@code dead-letters} out. Checks the topics first and can create the missing ones.
 */
public final class AggregatorRunner implements AutoCloseable {

    public static final String DEFAULT_APPLICATION_ID = "paramhub-aggregator";
    private static final Logger log = LoggerFactory.getLogger(AggregatorRunner.class);

    private final KafkaStreams streams;

    private AggregatorRunner(final KafkaStreams streams) {
        this.streams = streams;
    }

    /**
     * Starts an aggregator. {@code given} holds at least {@code bootstrap.servers} and
     * {@code schema.registry.url}; anything else overrides ParamHub's Streams defaults.
     */
    public static AggregatorRunner start(final Properties given, final String topicPrefix,
                                         final TopicSetup topicSetup) {
        return start(given, topicPrefix, topicSetup, AggregatorMetrics.unregistered());
    }

    /** As {@link #start(Properties, String, TopicSetup)}, recording into {@code metrics}. */
    public static AggregatorRunner start(final Properties given, final String topicPrefix,
                                         final TopicSetup topicSetup, final AggregatorMetrics metrics) {
        final Properties props = StreamsProperties.withDefaults(DEFAULT_APPLICATION_ID, given);
        requireSetting(props, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
        requireSetting(props, StreamsProperties.SCHEMA_REGISTRY_URL);
        final SerdeFactory serdes = new SerdeFactory(registryConfig(props));
        final TopicCatalog topics = TopicCatalog.create(topicPrefix, serdes);
        // where Streams' own error handlers (poison pills on jobs and membership) write their dead letters
        props.put(StreamsProperties.DEAD_LETTER_TOPIC, topics.deadLetters().name());
        try (Admin admin = Admin.create(adminConfig(props))) {
            final TopicProvisioner provisioner = new TopicProvisioner(admin);
            if (topicSetup.create()) {
                provisioner.ensure(topics.layouts(topicSetup.shardPartitions(), topicSetup.otherPartitions()),
                    topicSetup.replicationFactor());
            }
            provisioner.commonPartitionCount(topics.coPartitioned());
            if (provisioner.commonPartitionCount(topics.control()) != 1) {
                throw new IllegalStateException("topics " + topics.control() + " must have exactly one partition, "
                    + "so that one task sees a job and all of its workers");
            }
        }
        final Topology topology = AggregatorTopology.build(topics, serdes, metrics);
        log.debug("aggregator topology:\n{}", topology.describe());
        final KafkaStreams streams = new KafkaStreams(topology, props);
        streams.setUncaughtExceptionHandler(new BoundedThreadReplacement(3, Duration.ofMinutes(5)));
        streams.start();
        log.info("aggregator {} started against {}", props.get(StreamsConfig.APPLICATION_ID_CONFIG),
            props.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        return new AggregatorRunner(streams);
    }

    public KafkaStreams streams() {
        return streams;
    }

    @Override
    public void close() {
        // a deliberate stop leaves the group, so that the shards move to the other instances at once
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
            .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
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
