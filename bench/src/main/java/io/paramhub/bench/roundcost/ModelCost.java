package io.paramhub.bench.roundcost;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.Arrays;
import java.util.List;

/**
 * What one model's BSP rounds cost, as measured: its job, the training run through Kafka (wall and training
 * seconds, barrier wait, compute, the aggregator's transactions, bytes written per topic) and the same job in
 * one JVM; and the figures derived from them. Times in seconds, waits and compute in ms per worker iteration.
 */
record ModelCost(
        JobSpec spec,
        long rounds,
        String metric,
        double finalTestMetric,
        double wallSeconds,
        double trainingSeconds,
        double waitMsMean,
        double waitMsP50,
        double waitMsP99,
        double computeMsMean,
        long transactions,
        List<TopicBytes> topics,
        double inProcessSeconds,
        int inProcessThreads,
        boolean sameFinalModel) {

    /** The figures of one model's Kafka run and its in-process run. */
    static ModelCost of(final KafkaRoundCost.Outcome kafka, final InProcessRun.Outcome local) {
        final TrainingRun.Result result = kafka.result();
        return new ModelCost(
                result.job().spec(),
                result.job().iterations(),
                result.last().metric(),
                result.last().testMetric(),
                result.wallSeconds(),
                kafka.trainingSeconds(),
                kafka.waitMsMean(),
                kafka.waitMsP50(),
                kafka.waitMsP99(),
                kafka.computeMsMean(),
                result.aggregatorCommits(),
                kafka.topics(),
                local.seconds(),
                local.threads(),
                Arrays.equals(result.finalParameters(), local.finalParameters()));
    }

    /** The model's kind, e.g. {@code mlp}. */
    String model() {
        return spec.getModel();
    }

    /** The wall time that was not rounds: apps starting, the first rebalance, joining, the last evaluation. */
    double startupSeconds() {
        return wallSeconds - trainingSeconds;
    }

    /** Rounds over training seconds (from the first iteration reported to the last). */
    double roundsPerSecond() {
        return trainingSeconds == 0 ? 0 : rounds / trainingSeconds;
    }

    /** Training time per round, in ms. */
    double roundMsMean() {
        return rounds == 0 ? 0 : 1000 * trainingSeconds / rounds;
    }

    /** What a round's time leaves after the mean compute and the mean barrier wait: publishing, reading, scheduling. */
    double otherMsMean() {
        return Math.max(0, roundMsMean() - computeMsMean - waitMsMean);
    }

    double transactionsPerRound() {
        return rounds == 0 ? 0 : (double) transactions / rounds;
    }

    /** Bytes written per round to every topic together. */
    double bytesPerRound() {
        return topics.stream().mapToDouble(topic -> topic.perRound(rounds)).sum();
    }

    /** Bytes written per round to the topic named {@code name}; 0 when nothing was. */
    double bytesPerRound(final String name) {
        return topics.stream()
                .filter(topic -> topic.topic().equals(name))
                .mapToDouble(topic -> topic.perRound(rounds))
                .sum();
    }

    /**
     * The values the workers send per round. The bench's workers share one process, so a BSP job with float32
     * gradients and one stage sends their host's sum (float64) of every parameter; any other, every worker's
     * gradient of every parameter in float32.
     */
    long gradientPayloadBytesPerRound() {
        return JobSpecs.summableOnHost(spec)
                ? 8L * spec.getParameters()
                : 4L * spec.getParameters() * spec.getExpectedWorkers();
    }

    double inProcessRoundsPerSecond() {
        return inProcessSeconds == 0 ? 0 : rounds / inProcessSeconds;
    }

    /** Kafka training seconds over in-process seconds for the same rounds. */
    double kafkaOverInProcess() {
        return inProcessSeconds == 0 ? 0 : trainingSeconds / inProcessSeconds;
    }
}
