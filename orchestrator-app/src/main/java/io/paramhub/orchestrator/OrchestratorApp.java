package io.paramhub.orchestrator;

import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.orchestrator.http.WorkersQueryServer;
import io.paramhub.launcher.StreamsAppOptions;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Command line of the orchestrator: settings in, a running {@link OrchestratorRunner} until SIGTERM. */
@Command(name = "paramhub-orchestrator", mixinStandardHelpOptions = true,
    description = "Runs the ParamHub orchestrator (Kafka Streams, exactly-once): windows each worker's telemetry, "
        + "finds stragglers and publishes resource commands (batch shares, threads).%n"
        + "Settings: --config file, then -D overrides, then the options.")
public final class OrchestratorApp implements Callable<Integer> {

    @Mixin
    private StreamsAppOptions options;

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

    @Mixin
    private HttpOptions http;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final OrchestratorSettings settings = OrchestratorSettings.defaults()
            .withWindow(window)
            .withStragglerThreshold(threshold)
            .withLoadLever(loadLever)
            .withResourceLever(resourceLever)
            .withThreadBudget(threadBudget);
        final Properties props = options.properties(OrchestratorRunner.DEFAULT_APPLICATION_ID);
        final HttpOptions.Endpoint endpoint = http.endpoint(8091);
        endpoint.advertise(props);
        final OrchestratorRunner runner = OrchestratorRunner.start(props, options.topicPrefix(),
            options.topicSetup(), settings);
        final WorkersQueryServer server = endpoint.enabled()
            ? WorkersQueryServer.start(runner.streams(), endpoint.bindHost(), endpoint.port()) : null;
        return StreamsAppLauncher.runUntilStopped(runner.streams(), () -> {
            if (server != null) {
                server.close();
            }
            runner.close();
        });
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new OrchestratorApp()).execute(args));
    }
}
