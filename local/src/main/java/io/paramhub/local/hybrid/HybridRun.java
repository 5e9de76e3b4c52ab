package io.paramhub.local.hybrid;

import io.paramhub.avro.JobSpec;
import io.paramhub.local.ProgressPrinter;
import io.paramhub.local.RunListener;
import io.paramhub.local.TrainingRun;
import io.paramhub.local.WorkerTally;
import io.paramhub.local.roundcost.LogDirSampler;
import io.paramhub.local.roundcost.TopicBytes;
import io.paramhub.ml.TrainTest;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * One run of the hybrid bench: a job trained through Kafka as the demo trains it ({@link TrainingRun}), with
 * every worker's telemetry tallied ({@link WorkerTally}) and the bytes the brokers wrote to every topic from
 * before the aggregator starts to after it stops ({@link LogDirSampler}). Writes {@code jobs},
 * {@code membership}, {@code gradients}, {@code telemetry}, {@code model} (and, hybrid, {@code activations} and
 * {@code activation-gradients}); reads {@code model}.
 */
final class HybridRun {

    /** How often the brokers' log directories are sampled while the job trains. */
    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);

    /** What one run did: the job, its result, each worker's totals, the round loop's seconds, bytes per topic. */
    record Outcome(
            JobSpec spec,
            TrainingRun.Result result,
            Map<String, WorkerTally.Totals> workers,
            double trainingSeconds,
            List<TopicBytes> topics) {}

    private HybridRun() {}

    static Outcome run(
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
            final List<TopicBytes> topics = sampler.stop().topics();
            return new Outcome(spec, result, tally.totals(), tally.trainingSeconds(), topics);
        }
    }
}
