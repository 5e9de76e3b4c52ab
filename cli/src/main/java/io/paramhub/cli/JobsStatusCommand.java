package io.paramhub.cli;

import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.topology.client.JobStatus;
import io.paramhub.topology.client.JobsDigest;
import io.paramhub.topology.client.JobsReader;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code paramhub jobs status J [--watch]}: job J's model version, clocks, workers, the orchestrator's plan and its
 * dead letters, read from {@code jobs}, {@code model}, {@code membership}, {@code commands} and
 * {@code dead-letters} ({@link JobsReader}); {@code --watch} reads on from where it was every interval and
 * prints again.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Shows job JOB: model version (per shard when they differ), clocks (the model's and each "
                + "worker's), workers and their membership state, the orchestrator's last plan (shares, threads, "
                + "stragglers), dead letters by reason and, for a topic job, the examples trained through. Reads "
                + "the topics, not the apps' HTTP.")
final class JobsStatusCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JOB", description = "The job to show.")
    private String job;

    @Mixin
    private ConnectionOptions cluster;

    @Option(names = "--watch", description = "Prints the status again every --interval until interrupted.")
    private boolean watch;

    @Option(
            names = "--interval",
            paramLabel = "SECONDS",
            defaultValue = "2",
            description = "With --watch: seconds between two prints (default: ${DEFAULT-VALUE}).")
    private double interval;

    @Option(
            names = "--count",
            paramLabel = "N",
            defaultValue = "0",
            description = "With --watch: stop after N prints (default: until interrupted).")
    private int count;

    @Option(names = "--json", description = "Prints the status as JSON.")
    private boolean json;

    @Override
    public Integer call() throws InterruptedException {
        if (!(interval > 0)) {
            throw new IllegalArgumentException("--interval must be > 0 seconds, not " + interval);
        }
        try (JobsReader reader = JobsListCommand.reader(cluster)) {
            for (int printed = 1; ; printed++) {
                print(reader.read(JobsListCommand.READ_TIMEOUT), printed > 1);
                if (!watch || count > 0 && printed >= count) {
                    return 0;
                }
                Thread.sleep(Math.round(interval * 1000));
            }
        }
    }

    private void print(final JobsDigest digest, final boolean again) {
        final Instant now = Instant.now();
        final JobStatus status = digest.status(job, now)
                .orElseThrow(() -> new IllegalArgumentException("no job '" + job + "' on the jobs topic; "
                        + (digest.jobs().isEmpty()
                                ? "it holds none"
                                : "its jobs: " + String.join(", ", digest.jobs()))));
        if (json) {
            System.out.println(JobStatusText.json(status));
            return;
        }
        if (again) {
            System.out.println();
        }
        if (watch) {
            System.out.println("-- " + now.truncatedTo(ChronoUnit.MILLIS));
        }
        JobStatusText.status(status, now).forEach(System.out::println);
        System.out.flush();
    }
}
