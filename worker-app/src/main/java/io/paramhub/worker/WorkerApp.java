package io.paramhub.worker;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Command line of one worker: joins a submitted job and trains until the job's last clock. */
@Command(name = "paramhub-worker", mixinStandardHelpOptions = true,
    description = "Runs one ParamHub worker of a submitted job: computes gradients on its share of each batch, "
        + "publishes them and telemetry, waits for the model as the job's sync mode says.")
public final class WorkerApp implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers.")
    private String bootstrapServers;

    @Option(names = "--registry-url", required = true, description = "Schema registry URL (Confluent API).")
    private String registryUrl;

    @Option(names = "--job", required = true, description = "Name of the job on the jobs topic.")
    private String job;

    @Option(names = "--index", required = true, description = "This worker's index, 0..workers-1.")
    private int index;

    @Option(names = "--workers", required = true, description = "How many workers share each batch.")
    private int workers;

    @Option(names = "--topic-prefix", defaultValue = TopicCatalog.DEFAULT_PREFIX,
        description = "Prefix of every topic name (default: ${DEFAULT-VALUE}).")
    private String topicPrefix;

    @Option(names = "--model-timeout", defaultValue = "60",
        description = "Seconds to wait for a model version before failing (default: ${DEFAULT-VALUE}).")
    private long modelTimeoutSeconds;

    @Option(names = "--threads", defaultValue = "1",
        description = "Compute threads for the gradient of each batch (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--slowdown", defaultValue = "1",
        description = "Emulated slowness: compute takes this many times longer, by sleeping (default: ${DEFAULT-VALUE}).")
    private double slowdown;

    @Option(names = "--slowdown-at", defaultValue = "0",
        description = "Clock from which --slowdown applies (default: ${DEFAULT-VALUE}).")
    private long slowdownAt;

    @Option(names = "--sample-cost-us", defaultValue = "0",
        description = "Emulated compute cost: each sample costs at least this many microseconds, padded by "
            + "sleeping; 0 = the real cost only (default: ${DEFAULT-VALUE}).")
    private long sampleCostMicros;

    @Option(names = "--config", description = "A properties file of Kafka client settings.")
    private Path configFile;

    @Option(names = "-D", description = "A Kafka client setting, key=value (repeatable).")
    private Map<String, String> overrides = Map.of();

    @Override
    public Integer call() throws IOException {
        final Properties props = new Properties();
        if (configFile != null) {
            try (InputStream in = Files.newInputStream(configFile)) {
                props.load(in);
            }
        }
        props.putAll(overrides);
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        final TopicCatalog topics = TopicCatalog.create(topicPrefix, SerdeFactory.forRegistry(registryUrl));
        props.remove(StreamsProperties.SCHEMA_REGISTRY_URL);
        final WorkerSettings settings = new WorkerSettings(job, index, workers, Duration.ofSeconds(modelTimeoutSeconds),
            Duration.ofSeconds(modelTimeoutSeconds), new ComputeEmulation(slowdown, slowdownAt, sampleCostMicros),
            threads);
        final Worker worker = new Worker(settings, topics, props, Worker.loadFromSpec(), IterationListener.NONE);
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "worker-shutdown"));
        worker.run();
        return 0;
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new WorkerApp()).execute(args));
    }
}
