package io.paramhub.orchestrator;

import io.paramhub.launcher.ConfigFiles;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import java.io.IOException;
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

/** Command line of the orchestrator: settings in, a running {@link OrchestratorRunner} until SIGTERM. */
@Command(name = "paramhub-orchestrator", mixinStandardHelpOptions = true,
    description = "Runs the ParamHub orchestrator (Kafka Streams, exactly-once): windows each worker's telemetry, "
        + "finds stragglers and publishes resource commands (batch shares, threads).%n"
        + "Settings: --config file, then -D overrides, then the options below.")
public final class OrchestratorApp implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers.")
    private String bootstrapServers;

    @Option(names = "--registry-url", required = true, description = "Schema registry URL (Confluent API).")
    private String registryUrl;

    @Option(names = "--application-id", defaultValue = OrchestratorRunner.DEFAULT_APPLICATION_ID,
        description = "Kafka Streams application.id (default: ${DEFAULT-VALUE}).")
    private String applicationId;

    @Option(names = "--topic-prefix", defaultValue = TopicCatalog.DEFAULT_PREFIX,
        description = "Prefix of every topic name (default: ${DEFAULT-VALUE}).")
    private String topicPrefix;

    @Option(names = "--state-dir", description = "Kafka Streams state directory.")
    private Path stateDir;

    @Option(names = "--window", defaultValue = "3",
        description = "Iterations per worker a speed is measured over (default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--straggler-threshold", defaultValue = "0.2",
        description = "A worker this fraction below the median speed is a straggler (default: ${DEFAULT-VALUE}).")
    private double threshold;

    @Option(names = "--no-load-lever", negatable = true, defaultValue = "true",
        description = "Plan batch shares proportional to speed (default: ${DEFAULT-VALUE}).")
    private boolean loadLever;

    @Option(names = "--no-resource-lever", negatable = true, defaultValue = "true",
        description = "Move compute threads to stragglers (default: ${DEFAULT-VALUE}).")
    private boolean resourceLever;

    @Option(names = "--thread-budget", defaultValue = "0",
        description = "Spare threads of the cluster to give stragglers; 0 = only move threads between workers "
            + "(default: ${DEFAULT-VALUE}).")
    private int threadBudget;

    @Option(names = "--config", description = "A properties file of Kafka Streams and client settings.")
    private Path configFile;

    @Option(names = "-D", description = "A Kafka Streams or client setting, key=value (repeatable).")
    private Map<String, String> overrides = Map.of();

    @Override
    public Integer call() throws IOException, InterruptedException {
        final Properties props = ConfigFiles.load(configFile, overrides);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        if (stateDir != null) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        final OrchestratorSettings settings = OrchestratorSettings.defaults()
            .withWindow(window)
            .withStragglerThreshold(threshold)
            .withLoadLever(loadLever)
            .withResourceLever(resourceLever)
            .withThreadBudget(threadBudget);
        final OrchestratorRunner runner = OrchestratorRunner.start(props, topicPrefix, TopicSetup.defaults(), settings);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            runner.close();
            stopped.countDown();
        }, "orchestrator-shutdown"));
        while (!stopped.await(1, TimeUnit.SECONDS)) {
            final KafkaStreams.State state = runner.streams().state();
            if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
                return 1;
            }
        }
        return 0;
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new OrchestratorApp()).execute(args));
    }
}
