package io.paramhub.aggregator;

import io.paramhub.aggregator.http.ModelQueryServer;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.StreamsAppOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Command line of the aggregator: settings in, a running {@link AggregatorRunner} until SIGTERM. */
@Command(name = "paramhub-aggregator", mixinStandardHelpOptions = true,
    description = "Runs the ParamHub aggregator (Kafka Streams, exactly-once): sums each clock's gradients per "
        + "shard, applies the optimizer and publishes the model.%n"
        + "Settings: --config file, then -D overrides, then the options.")
public final class AggregatorApp implements Callable<Integer> {

    @Mixin
    private StreamsAppOptions options;

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
        final Properties props = options.properties(AggregatorRunner.DEFAULT_APPLICATION_ID);
        final int port = httpPort == 0 ? freePort() : httpPort;
        if (port > 0) {
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedHost + ":" + port);
        }
        final AggregatorRunner runner = AggregatorRunner.start(props, options.topicPrefix(), options.topicSetup());
        final ModelQueryServer http = port > 0 ? ModelQueryServer.start(runner.streams(), httpHost, port) : null;
        if (http != null) {
            System.out.println("model query endpoint: http://" + advertisedHost + ":" + port + "/jobs/{job}/model");
        }
        return StreamsAppLauncher.runUntilStopped(runner.streams(), () -> {
            if (http != null) {
                http.close();
            }
            runner.close();
        });
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
