package io.paramhub.aggregator;

import io.paramhub.aggregator.http.ModelQueryServer;
import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.StreamsAppOptions;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Command line of the aggregator: settings in, a running {@link AggregatorRunner} until SIGTERM. */
@Command(name = "paramhub-aggregator", mixinStandardHelpOptions = true,
    description = "Runs the ParamHub aggregator (Kafka Streams, exactly-once): sums each clock's gradients per "
        + "shard, applies the optimizer and publishes the model.%n"
        + "Settings: --config file, then -D overrides, then the options.")
public final class AggregatorApp implements Callable<Integer> {

    @Mixin
    private StreamsAppOptions options;

    @Mixin
    private HttpOptions http;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final Properties props = options.properties(AggregatorRunner.DEFAULT_APPLICATION_ID);
        final HttpOptions.Endpoint endpoint = http.endpoint(8090);
        endpoint.advertise(props);
        final AggregatorRunner runner = AggregatorRunner.start(props, options.topicPrefix(), options.topicSetup());
        final ModelQueryServer server = endpoint.enabled()
            ? ModelQueryServer.start(runner.streams(), endpoint.bindHost(), endpoint.port()) : null;
        if (server != null) {
            System.out.println("model query endpoint: http://" + endpoint.advertisedHost() + ":" + endpoint.port()
                + "/jobs/{job}/model");
        }
        return StreamsAppLauncher.runUntilStopped(runner.streams(), () -> {
            if (server != null) {
                server.close();
            }
            runner.close();
        });
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new AggregatorApp()).execute(args));
    }
}
