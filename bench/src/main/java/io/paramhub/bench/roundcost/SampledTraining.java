package io.paramhub.bench.roundcost;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.ProgressPrinter;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.ml.TrainTest;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;

/**
 * A job trained through Kafka as {@code paramhub demo} trains it ({@link TrainingRun}, progress printed as the
 * demo prints it), with every worker's telemetry tallied ({@link WorkerTally}) and the bytes the brokers wrote
 * to every topic from before the aggregator starts to after it stops ({@link LogDirSampler}): what the
 * round-cost and hybrid benches measure a run by. Writes what the job writes ({@code jobs}, {@code membership},
 * {@code gradients}, {@code telemetry}, {@code model}, the changelogs, a hybrid job's activation topics).
 */
public final class SampledTraining {

    /** How often the brokers' log directories are sampled while the job trains. */
    public static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);

    /** The run's result, its workers' tally and the bytes written per topic. */
    public record Measured(TrainingRun.Result result, WorkerTally tally, List<TopicBytes> topics) {}

    private SampledTraining() {}

    public static Measured run(
            final TrainingRun training,
            final Admin admin,
            final JobSpec spec,
            final TrainTest data,
            final PrintStream console,
            final boolean terminal)
            throws InterruptedException {
        final WorkerTally tally = new WorkerTally();
        try (LogDirSampler sampler = new LogDirSampler(admin, SAMPLE_INTERVAL)) {
            sampler.start();
            final TrainingRun.Result result =
                    training.run(spec, data, RunListener.both(new ProgressPrinter(console, terminal), tally));
            return new Measured(result, tally, sampler.stop().topics());
        }
    }
}
