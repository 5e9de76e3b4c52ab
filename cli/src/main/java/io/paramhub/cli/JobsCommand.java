package io.paramhub.cli;

import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.client.JobDeleter;
import io.paramhub.worker.SubmitJobApp;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

/**
 * {@code paramhub jobs}: manages the jobs on a cluster's {@code jobs} topic; {@code submit} publishes one (the
 * worker jar's {@code paramhub-submit}, {@link SubmitJobApp}, on the cluster of {@code paramhub up} unless told
 * otherwise), {@code list} and {@code status} read them and their progress, {@code delete} tombstones one.
 */
@Command(
        name = "jobs",
        mixinStandardHelpOptions = true,
        description = "Manages the jobs of a running cluster.",
        modelTransformer = JobsCommand.Submit.class,
        subcommands = {JobsListCommand.class, JobsStatusCommand.class, JobsCommand.Delete.class})
public final class JobsCommand implements Runnable {

    /** Adds {@code submit}: the worker jar's submitter, with every option it has there. */
    public static final class Submit implements IModelTransformer {

        @Override
        public CommandSpec transform(final CommandSpec jobs) {
            // as the other jobs subcommands, the cluster of `paramhub up` when nothing names one
            final CommandLine submit = new CommandLine(new SubmitJobApp(Map.of(
                            CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                            RecordCommand.UP_BOOTSTRAP_SERVERS,
                            StreamsProperties.SCHEMA_REGISTRY_URL,
                            RecordCommand.UP_REGISTRY_URL)))
                    .setCommandName("submit");
            submit.getCommandSpec()
                    .usageMessage()
                    .header("Submits a job: its JobSpec on the jobs topic, from a data set or a data topic.");
            jobs.addSubcommand("submit", submit);
            return jobs;
        }
    }

    @CommandLine.Spec
    private CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(System.out);
    }

    /** {@code paramhub jobs delete J}: a tombstone for J on {@code jobs}. */
    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description =
                    "Deletes job JOB: writes a tombstone for it on the jobs topic. The aggregator drops its shard "
                            + "state and gauges and writes tombstones for its records on model; the orchestrator drops its "
                            + "state and meters; the dashboard drops its board. Delete a job once its workers are done.")
    static final class Delete implements Callable<Integer> {

        @Parameters(paramLabel = "JOB", description = "The job to delete.")
        private String job;

        @Mixin
        private ConnectionOptions cluster;

        @Override
        public Integer call() {
            final Properties settings = cluster.settings();
            settings.putIfAbsent(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, RecordCommand.UP_BOOTSTRAP_SERVERS);
            settings.putIfAbsent(StreamsProperties.SCHEMA_REGISTRY_URL, RecordCommand.UP_REGISTRY_URL);
            final KafkaConnection connection = KafkaConnection.of(settings);
            final String jobs = connection.topics(cluster.topicPrefix()).jobs().name();
            JobDeleter.delete(jobs, connection.client(), job);
            System.out.println("deleted job " + job + " (tombstone on " + jobs + ")");
            return 0;
        }
    }
}
