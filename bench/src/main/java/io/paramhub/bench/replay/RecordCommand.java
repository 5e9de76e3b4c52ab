package io.paramhub.bench.replay;

import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.topology.StreamsProperties;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code paramhub record}: saves one job's records from a cluster's topics into a directory. */
@Command(
        name = "record",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Saves one job's records (jobs, membership, gradients, telemetry, commands, model) from a "
                + "running cluster into DIR, for `paramhub replay`. Run it while the cluster still holds them: on the "
                + "embedded broker of `paramhub up`, or any cluster given by --bootstrap-servers.")
public final class RecordCommand implements Callable<Integer> {

    /** The broker of {@code paramhub up}, recorded from when no {@code --bootstrap-servers} is given. */
    public static final String UP_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
    /** The registry of {@code paramhub up}, used when no {@code --registry-url} is given. */
    public static final String UP_REGISTRY_URL = "http://127.0.0.1:8081";

    @Option(names = "--job", required = true, description = "The job to record.")
    private String job;

    @Option(names = "--out", required = true, description = "Directory to write the recording to.")
    private Path out;

    @Mixin
    private ConnectionOptions cluster;

    @Override
    public Integer call() throws Exception {
        final Properties settings = cluster.settings();
        settings.putIfAbsent(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, UP_BOOTSTRAP_SERVERS);
        settings.putIfAbsent(StreamsProperties.SCHEMA_REGISTRY_URL, UP_REGISTRY_URL);
        final KafkaConnection connection = KafkaConnection.of(settings);
        final Map<RecordedTopic, Integer> counts =
                Recorder.record(connection.topics(cluster.topicPrefix()), connection.client(), job, out);
        counts.forEach((topic, count) -> System.out.printf(
                Locale.ROOT, "%-10s %8d records%n", topic.name().toLowerCase(Locale.ROOT), count));
        System.out.println("recorded job " + job + " into " + out);
        return 0;
    }
}
