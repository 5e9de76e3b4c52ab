package io.paramhub.bench.roundcost;

import io.paramhub.bench.replay.JobReplay;
import io.paramhub.bench.replay.KafkaComparison;
import io.paramhub.bench.replay.KafkaLimits;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** The round-cost bench's summary on standard output: one row per model, bytes per topic, and the replay. */
final class RoundCostTable {

    private RoundCostTable() {}

    /** Prints the summary; {@code replay} is null when it was skipped, for the reason {@code skipped}. */
    static void print(
            final PrintStream out,
            final List<ModelCost> models,
            final String replayModel,
            final JobReplay.Outcome replay,
            final String skipped) {
        out.println();
        out.println("model      rounds  start-up s  train s  rounds/s  wait ms mean    p50    p99  compute ms  "
                + "txn/round  KiB/round  in-JVM s  Kafka/in-JVM");
        for (final ModelCost model : models) {
            out.printf(
                    Locale.ROOT,
                    "%-9s  %6d  %10.1f  %7.1f  %8.1f  %12.2f  %5.2f  %5.2f  %10.2f  %9.2f  %9.1f  %8.2f" + "  %12.1f%n",
                    model.model(),
                    model.rounds(),
                    model.startupSeconds(),
                    model.trainingSeconds(),
                    model.roundsPerSecond(),
                    model.waitMsMean(),
                    model.waitMsP50(),
                    model.waitMsP99(),
                    model.computeMsMean(),
                    model.transactionsPerRound(),
                    model.bytesPerRound() / 1024,
                    model.inProcessSeconds(),
                    model.kafkaOverInProcess());
        }
        out.println();
        final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-48s", "KiB written per round"));
        models.forEach(model -> header.append(String.format(Locale.ROOT, "  %10s", model.model())));
        out.println(header);
        boolean anyLowerBound = false;
        for (final String topic : RoundCostPlots.topics(models)) {
            final StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-48s", topic));
            for (final ModelCost model : models) {
                final boolean lowerBound =
                        model.topics().stream().anyMatch(bytes -> bytes.topic().equals(topic) && bytes.lowerBound());
                anyLowerBound |= lowerBound;
                row.append(String.format(
                        Locale.ROOT,
                        "  %10s",
                        String.format(
                                Locale.ROOT, "%s%.2f", lowerBound ? ">=" : "", model.bytesPerRound(topic) / 1024)));
            }
            out.println(row);
        }
        if (anyLowerBound) {
            out.println(
                    ">= : the broker dropped data of that topic during the run (compaction or retention): a lower bound");
        }
        out.println();
        if (replay == null) {
            out.printf(Locale.ROOT, "replay of %s skipped: %s%n", replayModel, skipped);
            return;
        }
        final KafkaComparison kafka = replay.kafka();
        out.printf(
                Locale.ROOT,
                "replay of %s: its first %d clocks, %d gradients of %d bytes, into a fresh aggregator "
                        + "in %.2f s; its model equals the in-process one: %s%n",
                replayModel,
                replay.clocks(),
                replay.gradients(),
                kafka.recordSizeBytes(),
                replay.seconds(),
                replay.sameModel() ? "yes" : "NO");
        out.println("                                    records/s      MB/s");
        out.printf(
                Locale.ROOT,
                "aggregator (replay)               %11.0f  %8.2f%n",
                kafka.aggregatorRecordsPerSecond(),
                kafka.aggregatorMegabytesPerSecond());
        rate(out, "Kafka ProducerPerformance", kafka.limits().producer());
        rate(out, "Kafka ConsumerPerformance", kafka.limits().consumer());
        rate(out, "exactly-once pass-through Streams", kafka.limits().streamsPassThrough());
        out.printf(Locale.ROOT, "aggregator MB/s / pass-through MB/s = %.3f%n", kafka.megabytesRatioToPassThrough());
    }

    private static void rate(final PrintStream out, final String name, final KafkaLimits.Rate rate) {
        out.printf(Locale.ROOT, "%-33s %11.0f  %8.2f%n", name, rate.recordsPerSecond(), rate.megabytesPerSecond());
    }
}
