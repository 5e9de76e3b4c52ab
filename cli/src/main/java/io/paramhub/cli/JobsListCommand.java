package io.paramhub.cli;

import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.client.JobStatus;
import io.paramhub.topology.client.JobsReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code paramhub jobs list}: one line a job on {@code jobs} (deleted ones left out) with its progress from
 * {@code model}, its live workers from {@code membership} and its state; reads the topics ({@link JobsReader}),
 * so it needs no app's HTTP.
 */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Lists the jobs on the jobs topic: model, data set, live/expected workers, sync mode, model "
                + "version, clock (of how many when the spec tells the job's length) and state (no model yet, "
                + "training, done, idle: no live worker). Reads the topics, not the apps' HTTP.")
final class JobsListCommand implements Callable<Integer> {

    /** How long one read of a topic, up to its end offsets, may take. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @Mixin
    private ConnectionOptions cluster;

    @Option(names = "--json", description = "Prints the jobs as a JSON array, with everything jobs status shows.")
    private boolean json;

    @Override
    public Integer call() {
        final List<JobStatus> jobs;
        try (JobsReader reader = reader(cluster)) {
            jobs = reader.read(READ_TIMEOUT).statuses(Instant.now());
        }
        if (json) {
            System.out.println(JobStatusText.json(jobs));
        } else {
            JobStatusText.table(jobs).forEach(System.out::println);
        }
        return 0;
    }

    /** A reader of the cluster's topics, with the defaults of {@code paramhub up} that {@code jobs delete} has. */
    static JobsReader reader(final ConnectionOptions cluster) {
        final Properties settings = cluster.settings();
        settings.putIfAbsent(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, RecordCommand.UP_BOOTSTRAP_SERVERS);
        settings.putIfAbsent(StreamsProperties.SCHEMA_REGISTRY_URL, RecordCommand.UP_REGISTRY_URL);
        final KafkaConnection connection = KafkaConnection.of(settings);
        return new JobsReader(connection.topics(cluster.topicPrefix()), connection.client());
    }
}
