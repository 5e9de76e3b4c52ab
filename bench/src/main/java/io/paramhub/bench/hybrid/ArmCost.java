package io.paramhub.bench.hybrid;

import io.paramhub.bench.roundcost.TopicBytes;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.ml.PipelineModel;
import io.paramhub.topology.TopicCatalog;
import java.util.List;
import java.util.Map;

/**
 * What one run of the hybrid bench cost, per round: time (wall, rounds per second, each worker's mean compute,
 * barrier wait and wait for its neighbouring stages), bytes (what the brokers wrote to {@code gradients}, to
 * {@code activations} and {@code activation-gradients}, and to {@code model}; the activations' float payload
 * from the workers' telemetry, next to what the stages' cut widths say it must be; the model bytes the workers
 * read, estimated), parameters held, and the final test metric.
 *
 * @param name {@code data-parallel} or {@code hybrid}
 * @param gradientFloatsPerRound the gradient values published a round, by arithmetic: each worker's parameters
 *     held (data-parallel: every worker the whole model)
 * @param activationPayloadBytesPerRound activations and their gradients moved a round (float32 payload), from
 *     the workers' telemetry, each exchange counted once
 * @param expectedActivationPayloadBytesPerRound the same by arithmetic: batch x the cut widths x 4 B x 2
 *     directions
 * @param modelBytesReadPerRound what {@code model} grew by a round x the fraction of the parameters each
 *     worker holds, summed over the workers: a stage worker fetches only its stage's partitions (and any other
 *     shards that share them, which this leaves out)
 */
record ArmCost(
        String name,
        int replicas,
        int stages,
        long rounds,
        double wallSeconds,
        double trainingSeconds,
        double roundsPerSecond,
        double computeMsMean,
        double waitMsMean,
        double stageWaitMsMean,
        List<WorkerCost> workers,
        double gradientBytesPerRound,
        long gradientFloatsPerRound,
        double activationBytesPerRound,
        double activationPayloadBytesPerRound,
        long expectedActivationPayloadBytesPerRound,
        double modelBytesWrittenPerRound,
        double modelBytesReadPerRound,
        long parametersHeldMax,
        double parametersHeldMaxFraction,
        String metric,
        double testMetric,
        List<TopicBytes> topics) {

    /** One worker's means per round and what it holds. */
    record WorkerCost(
            String worker, int stage, double computeMs, double waitMs, double stageWaitMs, long parametersHeld) {}

    static ArmCost of(
            final String name,
            final HybridBenchSettings settings,
            final HybridRun.Outcome outcome,
            final TopicCatalog topics) {
        final int stages = outcome.spec().getStages();
        final long parameters = outcome.spec().getParameters();
        final long rounds = outcome.result().job().iterations();
        final Map<String, WorkerTally.Totals> totals = outcome.workers();
        final List<WorkerCost> workers = totals.entrySet().stream()
                .map(entry -> {
                    final WorkerTally.Totals t = entry.getValue();
                    return new WorkerCost(
                            entry.getKey(),
                            stages > 1 ? t.stage() : 0,
                            t.meanComputeMs(),
                            t.meanWaitMs(),
                            t.meanActivationWaitMs(),
                            stages > 1 ? t.parametersHeld() : parameters);
                })
                .toList();
        final long floats =
                workers.stream().mapToLong(WorkerCost::parametersHeld).sum();
        final long held =
                workers.stream().mapToLong(WorkerCost::parametersHeld).max().orElse(parameters);
        final double modelWritten = bytes(outcome.topics(), topics.model().name()) / (double) rounds;
        return new ArmCost(
                name,
                outcome.spec().getExpectedWorkers() / stages,
                stages,
                rounds,
                outcome.result().wallSeconds(),
                outcome.trainingSeconds(),
                outcome.trainingSeconds() > 0 ? rounds / outcome.trainingSeconds() : 0,
                workers.stream().mapToDouble(WorkerCost::computeMs).average().orElse(0),
                workers.stream().mapToDouble(WorkerCost::waitMs).average().orElse(0),
                workers.stream().mapToDouble(WorkerCost::stageWaitMs).average().orElse(0),
                workers,
                bytes(outcome.topics(), topics.gradients().name()) / (double) rounds,
                floats,
                (bytes(outcome.topics(), topics.activations().name())
                                + bytes(
                                        outcome.topics(),
                                        topics.activationGradients().name()))
                        / (double) rounds,
                totals.values().stream()
                                .mapToLong(WorkerTally.Totals::activationBytes)
                                .sum()
                        / 2.0
                        / rounds,
                expectedActivationBytes(settings.model(), stages, settings.batch()),
                modelWritten,
                modelWritten * floats / parameters,
                held,
                held / (double) parameters,
                outcome.result().last().metric(),
                outcome.result().last().testMetric(),
                outcome.topics());
    }

    /**
     * Activations and their gradients a round by arithmetic: every sample of the batch crosses each of the
     * {@code stages - 1} cuts forward and its gradient back, as many float32 values as the cut is wide.
     */
    static long expectedActivationBytes(final PipelineModel model, final int stages, final int batch) {
        long width = 0;
        for (int k = 0; k < stages - 1; k++) {
            width += model.stage(k, stages).outputWidth();
        }
        return (long) batch * width * Float.BYTES * 2;
    }

    /** The sum of gradient and activation bytes the brokers wrote a round: the traffic a round adds. */
    double exchangedBytesPerRound() {
        return gradientBytesPerRound + activationBytesPerRound;
    }

    private static long bytes(final List<TopicBytes> topics, final String topic) {
        return topics.stream()
                .filter(t -> t.topic().equals(topic))
                .mapToLong(TopicBytes::bytesWritten)
                .sum();
    }
}
