package io.paramhub.cli;

import io.paramhub.ml.TopicSpec;
import picocli.CommandLine.Option;

/** {@code paramhub demo}'s options for online training from a topic ({@code --online} and what goes with it). */
final class OnlineOptions {

    /** Examples a second streamed in unless {@code --rate} says otherwise. */
    static final int DEFAULT_RATE = 2_000;

    @Option(
            names = "--online",
            description = "Online training: stream the data set's training examples into a topic once the workers "
                    + "have joined, at --rate, and train from the topic, each clock in one transaction with its "
                    + "input offsets (docs/online.md); prints prequential accuracy per --window examples and "
                    + "freshness, and writes them as the report's online object. The global batch is then "
                    + OnlineDemo.DEFAULT_BATCH + " unless --batch is given: a clock takes what has come within 50 ms "
                    + "once it holds an example, up to its share of it. No orchestrator runs.")
    private boolean online;

    @Option(
            names = "--rate",
            defaultValue = "" + DEFAULT_RATE,
            description = "With --online: examples a second streamed in (default: ${DEFAULT-VALUE}).")
    private int rate;

    @Option(
            names = "--window",
            defaultValue = "" + TopicSpec.DEFAULT_WINDOW,
            description = "With --online: examples per prequential window (default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(
            names = "--max-examples",
            description = "With --online: examples to train on (default: the training set, streamed once).")
    private Long maxExamples;

    @Option(
            names = "--drift-at",
            description = "With --online: from the N-th example streamed on, labels are permuted (concept drift).")
    private Long driftAt;

    boolean enabled() {
        return online;
    }

    int rate() {
        return rate;
    }

    int window() {
        return window;
    }

    /** The examples to train on: {@code --max-examples}, or {@code trainingSet}. */
    long maxExamples(final long trainingSet) {
        return maxExamples != null ? maxExamples : trainingSet;
    }

    /** {@code --drift-at}, or -1. */
    long driftAt() {
        return driftAt != null ? driftAt : -1;
    }

    /** What is wrong with these options, or null. */
    String problem() {
        if (!online && (maxExamples != null || driftAt != null)) {
            return "--max-examples and --drift-at go with --online";
        }
        if (rate < 1) {
            return "--rate must be >= 1 example a second, not " + rate;
        }
        if (window < 1) {
            return "--window must be >= 1, not " + window;
        }
        if (maxExamples != null && maxExamples < 1 || driftAt != null && driftAt < 0) {
            return "--max-examples must be >= 1 and --drift-at >= 0";
        }
        return null;
    }
}
