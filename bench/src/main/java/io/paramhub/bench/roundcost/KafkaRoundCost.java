package io.paramhub.bench.roundcost;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.ml.TrainTest;
import java.io.PrintStream;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;

/**
 * One model's job trained through Kafka as {@code paramhub demo} trains it ({@link TrainingRun}: one
 * aggregator and the workers in this JVM, progress printed as the demo prints it), measured: barrier wait,
 * compute and training time from the workers' telemetry ({@link WorkerTally}), the aggregator's commits
 * ({@link TrainingRun.Result#aggregatorCommits()}), and the bytes the brokers wrote to every topic from before
 * the aggregator starts to after it stops ({@link SampledTraining}). Writes {@code jobs}, {@code membership},
 * {@code gradients}, {@code telemetry}, {@code model} and the aggregator's changelogs; reads {@code model}.
 */
final class KafkaRoundCost {

    /** What the run did and cost. */
    record Outcome(
            TrainingRun.Result result,
            double trainingSeconds,
            double waitMsMean,
            double waitMsP50,
            double waitMsP99,
            double computeMsMean,
            List<TopicBytes> topics) {}

    private KafkaRoundCost() {}

    static Outcome run(
            final TrainingRun training,
            final Admin admin,
            final JobSpec spec,
            final TrainTest data,
            final PrintStream console,
            final boolean terminal)
            throws InterruptedException {
        final SampledTraining.Measured run = SampledTraining.run(training, admin, spec, data, console, terminal);
        final WorkerTally tally = run.tally();
        return new Outcome(
                run.result(),
                tally.trainingSeconds(),
                tally.meanWaitMs(),
                tally.waitMsPercentile(50),
                tally.waitMsPercentile(99),
                tally.meanComputeMs(),
                run.topics());
    }
}
