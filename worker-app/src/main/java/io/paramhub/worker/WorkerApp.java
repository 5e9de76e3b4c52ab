package io.paramhub.worker;

import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.AppMetrics;
import io.paramhub.launcher.EmulationOptions;
import io.paramhub.launcher.HttpEndpoint;
import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.KafkaOptions;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.OpsHttpServer;
import io.paramhub.launcher.PluginOptions;
import io.paramhub.launcher.SettingException;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicCheck;
import io.paramhub.topology.TopicReplication;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Command line of one worker: joins a submitted job and trains until the job's last clock. */
@Command(
        name = "paramhub-worker",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "paramhub-worker 0.1.0",
        description = "Runs one ParamHub worker of a submitted job: computes gradients on its share of each batch, "
                + "publishes them and telemetry, waits for the model as the job's sync mode says. Serves /health/live, "
                + "/health/ready (ready once it has joined and computed on a model) and /metrics (Prometheus) on "
                + "--http-port.")
public final class WorkerApp implements Callable<Integer> {

    /** Port of the HTTP endpoint when none is given. */
    public static final int DEFAULT_HTTP_PORT = 8092;

    private static final Pattern TRAILING_NUMBER = Pattern.compile(".*?(\\d+)$");

    @Mixin
    private KafkaOptions kafka;

    @Mixin
    private PluginOptions plugins;

    @Option(names = "--job", description = "Name of the job on the jobs topic. Required.")
    private String job;

    @Option(
            names = "--index",
            paramLabel = "N|hostname",
            description = "This worker's index, 0..workers-1, or 'hostname' for the number the host name ends with "
                    + "(a StatefulSet pod's ordinal: paramhub-worker-2 is 2). Required.")
    private String index;

    @Option(names = "--workers", description = "How many workers share each batch. Required.")
    private Integer workers;

    @Option(
            names = "--model-timeout",
            defaultValue = "60",
            description = "Seconds to wait for a model version before failing (default: ${DEFAULT-VALUE}).")
    private long modelTimeoutSeconds;

    @Option(
            names = "--threads",
            defaultValue = "1",
            description = "Compute threads for the gradient of each batch (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(
            names = "--slowdown",
            defaultValue = "1",
            description =
                    "Emulated slowness: compute takes this many times longer, by sleeping (default: ${DEFAULT-VALUE}).")
    private double slowdown;

    @Option(
            names = "--slowdown-at",
            defaultValue = "0",
            description = "Clock from which --slowdown applies (default: ${DEFAULT-VALUE}).")
    private long slowdownAt;

    @Mixin
    private EmulationOptions emulation;

    @Option(
            names = "--stay-up",
            defaultValue = "false",
            description = "After the job's last clock keep serving HTTP until SIGTERM, instead of exiting "
                    + "(for orchestrators that restart exited containers) (default: ${DEFAULT-VALUE}).")
    private boolean stayUp;

    @Option(
            names = TopicCheck.ACCEPT_OPTION,
            description = "Start even when a ParamHub topic drifted from what ParamHub needs (cleanup policy, "
                    + "replication, min.insync.replicas, max.message.bytes): warn instead of refusing.")
    private boolean acceptTopicDrift;

    @Mixin
    private HttpOptions http;

    @Override
    public Integer call() throws Exception {
        plugins.install();
        final WorkerSettings settings = settings();
        final Properties given = kafka.properties(Map.of());
        final Properties props = ClientProperties.withoutRegistrySettings(given);
        KafkaOptions.validateClientSettings(props);
        final TopicCatalog topics = TopicCatalog.create(kafka.topicPrefix(), SerdeFactory.fromSettings(given));
        checkTopics(topics, props);
        final HttpOptions.Endpoint endpoint = http.endpoint(DEFAULT_HTTP_PORT);

        final AppMetrics metrics = AppMetrics.create("paramhub-worker");
        final WorkerMetrics meters = new WorkerMetrics(metrics.registry(), settings.job(), settings.workerId());
        final HttpEndpoint server = endpoint.enabled()
                ? OpsHttpServer.start(
                        new OpsEndpoints(metrics, meters::notReadyBecause), endpoint.bindHost(), endpoint.port())
                : null;
        final Worker worker = new Worker(settings, topics, metrics.reportClients(props), Worker.loadFromSpec(), meters);
        final CountDownLatch stopped = new CountDownLatch(1);
        try {
            return StreamsAppLauncher.runUntilDone(
                    () -> {
                        worker.run();
                        meters.finished();
                        if (stayUp) {
                            stopped.await();
                        }
                        return 0;
                    },
                    () -> {
                        worker.close();
                        stopped.countDown();
                    },
                    Duration.ofSeconds(30));
        } finally {
            if (server != null) {
                server.close();
            }
            metrics.close();
        }
    }

    /** Refuses to start on a fatal drift of the topics a worker uses, as the Streams apps do ({@link TopicCheck}). */
    private void checkTopics(final TopicCatalog topics, final Properties props) {
        final Properties connection = StreamsAppLauncher.connection(props);
        try (Admin admin = Admin.create(connection)) {
            // a worker is not told the replication asked for: the check holds it to ParamHub's floor
            new TopicCheck(admin, connection.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG))
                    .enforce(
                            topics.expectations(topics.workerTopics(), TopicReplication.BROKER_DEFAULTS),
                            acceptTopicDrift);
        }
    }

    private WorkerSettings settings() {
        SettingException.requireOption(job, "--job");
        SettingException.requireOption(workers, "--workers");
        final int position = parseIndex(SettingException.requireOption(index, "--index"), hostName());
        if (workers < 1) {
            throw new SettingException("--workers", "--workers must be at least 1, not " + workers);
        }
        if (position >= workers) {
            throw new SettingException("--index", "--index must be in 0.." + (workers - 1) + ", not " + position);
        }
        if (threads < 1) {
            throw new SettingException("--threads", "--threads must be at least 1, not " + threads);
        }
        if (!(slowdown >= 1)) {
            throw new SettingException("--slowdown", "--slowdown must be at least 1, not " + slowdown);
        }
        final long sampleCostMicros = emulation.sampleCostMicros(EmulationOptions.DEFAULT_SAMPLE_COST_US);
        if (modelTimeoutSeconds < 1 || slowdownAt < 0 || sampleCostMicros < 0) {
            throw new SettingException(
                    "--model-timeout",
                    "--model-timeout must be at least 1, --slowdown-at and " + "--sample-cost-us at least 0");
        }
        return new WorkerSettings(
                job,
                position,
                workers,
                Duration.ofSeconds(modelTimeoutSeconds),
                Duration.ofSeconds(modelTimeoutSeconds),
                new ComputeEmulation(slowdown, slowdownAt, sampleCostMicros),
                threads);
    }

    /** {@code --index}: a number, or {@code hostname} for the number {@code host} ends with. */
    static int parseIndex(final String value, final String host) {
        if ("hostname".equals(value)) {
            final Matcher matcher = TRAILING_NUMBER.matcher(host == null ? "" : host);
            if (!matcher.matches()) {
                throw new SettingException(
                        "--index", "--index hostname: host name '" + host + "' does not end with a number");
            }
            return Integer.parseInt(matcher.group(1));
        }
        try {
            final int parsed = Integer.parseInt(value.trim());
            if (parsed < 0) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (final NumberFormatException e) {
            throw new SettingException("--index", "--index must be a number >= 0 or 'hostname', not '" + value + "'");
        }
    }

    private static String hostName() {
        final String fromEnv = System.getenv("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            return null;
        }
    }

    public static void main(final String[] args) {
        System.exit(AppCommandLine.run(new WorkerApp(), args));
    }
}
