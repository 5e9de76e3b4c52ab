package io.paramhub.aggregator;

import io.paramhub.aggregator.http.ModelQueryServer;
import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.AppMetrics;
import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.KafkaOptions;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.PluginOptions;
import io.paramhub.launcher.Readiness;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.StreamsAppOptions;
import io.paramhub.topology.aggregator.AggregatorMetrics;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Command line of the aggregator: settings in, a running {@link AggregatorRunner} until SIGTERM. */
@Command(
        name = "paramhub-aggregator",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "paramhub-aggregator 0.1.0",
        description = "Runs the ParamHub aggregator (Kafka Streams, exactly-once): sums each clock's gradients per "
                + "shard, applies the optimizer and publishes the model. Serves GET /jobs/{job}/model, "
                + "/jobs/{job}/lineage?version=V, /health/live, "
                + "/health/ready and /metrics (Prometheus) on --http-port, bound to --http-host (127.0.0.1 unless "
                + "given); with --http-token, the model and lineage routes need Authorization: Bearer <token>.")
public final class AggregatorApp implements Callable<Integer> {

    @Mixin
    private KafkaOptions kafka;

    @Mixin
    private PluginOptions plugins;

    @Mixin
    private StreamsAppOptions options;

    @Mixin
    private HttpOptions http;

    @Override
    public Integer call() throws IOException, InterruptedException {
        plugins.install();
        final Properties props = options.properties(kafka, AggregatorRunner.DEFAULT_APPLICATION_ID);
        final HttpOptions.Endpoint endpoint = http.endpoint(AggregatorRunner.DEFAULT_HTTP_PORT);
        endpoint.advertise(props);
        final AppMetrics metrics = AppMetrics.create(AggregatorRunner.DEFAULT_APPLICATION_ID);
        final AggregatorRunner runner = AggregatorRunner.start(
                props, kafka.topicPrefix(), options.topicSetup(), new AggregatorMetrics(metrics.registry()));
        metrics.bind(runner.streams());
        final ModelQueryServer server = endpoint.enabled()
                ? ModelQueryServer.start(
                        runner.streams(),
                        runner.lineage(),
                        endpoint.bindHost(),
                        endpoint.port(),
                        new OpsEndpoints(metrics, Readiness.of(runner.streams())),
                        endpoint.token())
                : null;
        if (server != null) {
            System.out.println("model query endpoint: http://" + endpoint.advertisedHost() + ":" + endpoint.port()
                    + "/jobs/{job}/model");
        }
        return StreamsAppLauncher.runUntilStopped(runner.streams(), () -> {
            if (server != null) {
                server.close();
            }
            runner.close();
            metrics.close();
        });
    }

    public static void main(final String[] args) {
        System.exit(AppCommandLine.run(new AggregatorApp(), args));
    }
}
