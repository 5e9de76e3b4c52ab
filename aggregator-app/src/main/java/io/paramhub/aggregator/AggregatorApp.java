package io.paramhub.aggregator;

import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Command line of the aggregator: settings in, a running {@link AggregatorRunner} until SIGTERM. */
@Command(name = "paramhub-aggregator", mixinStandardHelpOptions = true,
    description = "Runs the ParamHub aggregator (Kafka Streams, exactly-once): sums each clock's gradients per "
        + "shard, applies the optimizer and publishes the model.%n"
        + "Settings: --config file, then -D overrides, then the options below.")
public final class AggregatorApp implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers.")
    private String bootstrapServers;

    @Option(names = "--registry-url", required = true, description = "Schema registry URL (Confluent API).")
    private String registryUrl;

    @Option(names = "--application-id", defaultValue = AggregatorRunner.DEFAULT_APPLICATION_ID,
        description = "Kafka Streams application.id (default: ${DEFAULT-VALUE}).")
    private String applicationId;

    @Option(names = "--topic-prefix", defaultValue = TopicCatalog.DEFAULT_PREFIX,
        description = "Prefix of every topic name (default: ${DEFAULT-VALUE}).")
    private String topicPrefix;

    @Option(names = "--state-dir", description = "Kafka Streams state directory.")
    private Path stateDir;

    @Option(names = "--config", description = "A properties file of Kafka Streams and client settings.")
    private Path configFile;

    @Option(names = "-D", description = "A Kafka Streams or client setting, key=value (repeatable).")
    private Map<String, String> overrides = Map.of();

    @Option(names = "--no-create-topics", negatable = true, defaultValue = "true",
        description = "Create missing topics (default: ${DEFAULT-VALUE}).")
    private boolean createTopics;

    @Option(names = "--shard-partitions", defaultValue = "" + TopicSetup.DEFAULT_SHARD_PARTITIONS,
        description = "Partitions of gradients, model and shard-jobs when created (default: ${DEFAULT-VALUE}).")
    private int shardPartitions;

    @Option(names = "--replication-factor", defaultValue = "-1",
        description = "Replication factor of created topics; -1 = the broker default (default: ${DEFAULT-VALUE}).")
    private short replicationFactor;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final Properties props = new Properties();
        if (configFile != null) {
            try (InputStream in = Files.newInputStream(configFile)) {
                props.load(in);
            }
        }
        props.putAll(overrides);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        if (stateDir != null) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        final TopicSetup setup = new TopicSetup(createTopics, shardPartitions, 4, replicationFactor);
        final CountDownLatch stopped = new CountDownLatch(1);
        final AggregatorRunner runner = AggregatorRunner.start(props, topicPrefix, setup);
        runner.streams().setStateListener((now, before) -> {
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                stopped.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            runner.close();
            stopped.countDown();
        }, "aggregator-shutdown"));
        stopped.await();
        final boolean failed = runner.streams().state() == KafkaStreams.State.ERROR;
        runner.close();
        return failed ? 1 : 0;
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new AggregatorApp()).execute(args));
    }
}
