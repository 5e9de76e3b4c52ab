package io.paramhub.bench.hybrid;

import io.paramhub.avro.JobSpec;
import io.paramhub.bench.roundcost.SampledTraining;
import io.paramhub.bench.roundcost.TopicBytes;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.ml.TrainTest;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * One run of the hybrid bench: a job trained through Kafka as the demo trains it ({@link TrainingRun}), with
 * every worker's telemetry tallied ({@link WorkerTally}) and the bytes the brokers wrote to every topic from
 * before the aggregator starts to after it stops ({@link SampledTraining}). Writes {@code jobs},
 * {@code membership}, {@code gradients}, {@code telemetry}, {@code model} (and, hybrid, {@code activations} and
 * {@code activation-gradients}); reads {@code model}.
 */
final class HybridRun {

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
        final SampledTraining.Measured run = SampledTraining.run(training, admin, spec, data, console, terminal);
        return new Outcome(spec, run.result(), run.tally().totals(), run.tally().trainingSeconds(), run.topics());
    }
}
