package io.paramhub.aggregator;

import io.paramhub.aggregator.http.ModelQueryServer;
import io.paramhub.launcher.ConfigFiles;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    @Option(names = "--http-port", defaultValue = "8090",
        description = "Port of the HTTP endpoint (GET /jobs/{job}/model, /health/live); 0 = any free port, "
            + "-1 = none (default: ${DEFAULT-VALUE}).")
    private int httpPort;

    @Option(names = "--http-host", defaultValue = "0.0.0.0",
        description = "Address the HTTP endpoint binds to (default: ${DEFAULT-VALUE}).")
    private String httpHost;

    @Option(names = "--advertised-host", defaultValue = "localhost",
        description = "Host name other aggregator instances reach this one's HTTP endpoint at "
            + "(Streams application.server) (default: ${DEFAULT-VALUE}).")
    private String advertisedHost;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final Properties props = ConfigFiles.load(configFile, overrides);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        if (stateDir != null) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        final TopicSetup setup = new TopicSetup(createTopics, shardPartitions, 4, replicationFactor);
        final int port = httpPort == 0 ? freePort() : httpPort;
        if (port > 0) {
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedHost + ":" + port);
        }
        final AggregatorRunner runner = AggregatorRunner.start(props, topicPrefix, setup);
        final ModelQueryServer http = port > 0 ? ModelQueryServer.start(runner.streams(), httpHost, port) : null;
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (http != null) {
                http.close();
            }
            runner.close();
            stopped.countDown();
        }, "aggregator-shutdown"));
        if (http != null) {
            System.out.println("model query endpoint: http://" + advertisedHost + ":" + port + "/jobs/{job}/model");
        }
        while (!stopped.await(1, TimeUnit.SECONDS)) {
            final KafkaStreams.State state = runner.streams().state();
            if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
                return 1;
            }
        }
        return 0;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new AggregatorApp()).execute(args));
    }
}
