package io.paramhub.orchestrator;

import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.AppMetrics;
import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.KafkaOptions;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.PluginOptions;
import io.paramhub.launcher.Readiness;
import io.paramhub.launcher.SettingException;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.StreamsAppOptions;
import io.paramhub.orchestrator.dashboard.Dashboard;
import io.paramhub.orchestrator.dashboard.TestSets;
import io.paramhub.topology.orchestrator.OrchestratorMetrics;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Command line of the orchestrator: settings in, a running {@link OrchestratorRunner} until SIGTERM. */
@Command(
        name = "paramhub-orchestrator",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "paramhub-orchestrator 0.1.0",
        description = "Runs the ParamHub orchestrator (Kafka Streams, exactly-once): windows each worker's telemetry, "
                + "finds stragglers and publishes resource commands (batch shares, threads). Serves "
                + "GET /jobs/{job}/workers, the live dashboard (GET /dashboard, feed GET /jobs/{job}/events), "
                + "/health/live, /health/ready and /metrics (Prometheus) on --http-port, bound to --http-host "
                + "(127.0.0.1 unless given); with --http-token, /jobs/{job}/workers needs Authorization: Bearer "
                + "<token>.")
public final class OrchestratorApp implements Callable<Integer> {

    @Mixin
    private KafkaOptions kafka;

    @Mixin
    private PluginOptions plugins;

    @Mixin
    private StreamsAppOptions options;

    @Option(
            names = "--window",
            defaultValue = "3",
            description = "Iterations per worker a speed is measured over (default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(
            names = "--straggler-threshold",
            defaultValue = "0.2",
            description = "A worker this fraction below the median speed is a straggler (default: ${DEFAULT-VALUE}).")
    private double threshold;

    @Option(
            names = "--no-load-lever",
            negatable = true,
            defaultValue = "true",
            description = "Plan batch shares proportional to speed (default: ${DEFAULT-VALUE}).")
    private boolean loadLever;

    @Option(
            names = "--no-resource-lever",
            negatable = true,
            defaultValue = "true",
            description = "Move compute threads to stragglers (default: ${DEFAULT-VALUE}).")
    private boolean resourceLever;

    @Option(
            names = "--thread-budget",
            defaultValue = "0",
            description = "Spare threads of the cluster to give stragglers; 0 = only move threads between workers "
                    + "(default: ${DEFAULT-VALUE}).")
    private int threadBudget;

    @Option(
            names = "--no-dashboard",
            negatable = true,
            defaultValue = "true",
            description =
                    "Serve the live dashboard on the HTTP port: reads jobs, telemetry, commands and model, and "
                            + "scores each model on its job's test set when that can be loaded here (default: ${DEFAULT-VALUE}).")
    private boolean dashboard;

    @Option(
            names = "--dashboard-max-streams",
            defaultValue = "" + Dashboard.DEFAULT_MAX_EVENT_STREAMS,
            description = "Dashboard event streams (GET /jobs/{job}/events) open at once; one more is answered 503 "
                    + "(default: ${DEFAULT-VALUE}).")
    private int maxEventStreams;

    @Option(
            names = "--dashboard-max-jobs",
            defaultValue = "" + Dashboard.DEFAULT_MAX_JOBS,
            description =
                    "Jobs the dashboard holds a board of; past that, a new job's board takes the place of the one "
                            + "heard of least recently (default: ${DEFAULT-VALUE}).")
    private int maxJobs;

    @Option(
            names = "--dashboard-data-dirs",
            split = ",",
            paramLabel = "DIR",
            description = "Directories the dashboard may load jobs' test sets from, besides the built-in "
                    + "fashion-mnist and generated data; a job naming other files is not evaluated (default: none).")
    private List<Path> dataDirs = new ArrayList<>();

    @Mixin
    private HttpOptions http;

    @Override
    public Integer call() throws IOException, InterruptedException {
        plugins.install();
        final OrchestratorSettings settings = OrchestratorSettings.defaults()
                .withWindow(window)
                .withStragglerThreshold(threshold)
                .withLoadLever(loadLever)
                .withResourceLever(resourceLever)
                .withThreadBudget(threadBudget);
        if (maxJobs < 1) {
            throw new SettingException(
                    "--dashboard-max-jobs", "--dashboard-max-jobs must be at least 1, not " + maxJobs);
        }
        if (maxEventStreams < 1) {
            throw new SettingException(
                    "--dashboard-max-streams", "--dashboard-max-streams must be at least 1, not " + maxEventStreams);
        }
        final Properties props = options.properties(kafka, OrchestratorRunner.DEFAULT_APPLICATION_ID);
        final HttpOptions.Endpoint endpoint = http.endpoint(OrchestratorRunner.DEFAULT_HTTP_PORT);
        endpoint.advertise(props);
        final AppMetrics metrics = AppMetrics.create(OrchestratorRunner.DEFAULT_APPLICATION_ID);
        final OrchestratorRunner runner = OrchestratorRunner.start(
                props,
                kafka.topicPrefix(),
                options.topicSetup(),
                settings,
                new OrchestratorMetrics(metrics.registry()));
        metrics.bind(runner.streams());
        StragglerGauges.register(metrics, runner.streams());
        final OrchestratorEndpoint server = endpoint.enabled()
                ? OrchestratorEndpoint.start(
                        runner,
                        endpoint,
                        new OpsEndpoints(metrics, Readiness.of(runner.streams())),
                        dashboard ? TestSets.loading(dataDirs) : null,
                        maxEventStreams,
                        maxJobs)
                : null;
        return StreamsAppLauncher.runUntilStopped(runner.streams(), () -> {
            if (server != null) {
                server.close();
            }
            runner.close();
            metrics.close();
        });
    }

    public static void main(final String[] args) {
        System.exit(AppCommandLine.run(new OrchestratorApp(), args));
    }
}
