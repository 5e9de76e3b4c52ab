package io.paramhub.stream;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What an {@link ExampleStreamer} writes and how fast: the data set ({@code dataSpec}, as {@code DataSources} reads
 * it; its test set when {@code testSet}), the topic, the rate in examples a second (0: as fast as the producer goes),
 * how many examples ({@code count}; empty: the data set once, or without end with {@code loop}), whether to start
 * over at the end of the data set, the id from which labels are permuted ({@code driftAt}), the partitions of a
 * topic it creates, the seed of the permutation, and how long to wait for the broker and the registry. Immutable;
 * {@link #of} gives the defaults of {@code paramhub stream}.
 */
public record StreamSettings(
        String dataSpec,
        String topic,
        boolean testSet,
        double rate,
        OptionalLong count,
        boolean loop,
        OptionalLong driftAt,
        int partitions,
        long seed,
        Duration timeout) {

    /** Examples a second unless told otherwise. */
    public static final double DEFAULT_RATE = 1000;
    /** Partitions of a topic the streamer creates unless told otherwise. */
    public static final int DEFAULT_PARTITIONS = 4;
    /** Seed of the drift's permutation unless told otherwise. */
    public static final long DEFAULT_SEED = 7;
    /** How long a call to the broker or the registry may take unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Checks each setting, naming it as {@code paramhub stream} does.
     *
     * @throws IllegalArgumentException for a blank data spec or topic, a negative or non-finite rate, a negative
     *     count or drift point, fewer than 1 partition, or a timeout that is not positive
     */
    public StreamSettings {
        Objects.requireNonNull(count, "count");
        Objects.requireNonNull(driftAt, "driftAt");
        Objects.requireNonNull(timeout, "timeout");
        if (dataSpec == null || dataSpec.isBlank()) {
            throw new IllegalArgumentException("--dataset must name a data set");
        }
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("--topic must name a topic");
        }
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException(
                    "--rate must be a number of examples a second >= 0 (0: as fast as possible), not " + rate);
        }
        if (count.isPresent() && count.getAsLong() < 0) {
            throw new IllegalArgumentException("--count must be >= 0, not " + count.getAsLong());
        }
        if (driftAt.isPresent() && driftAt.getAsLong() < 0) {
            throw new IllegalArgumentException("--drift-at must be >= 0, not " + driftAt.getAsLong());
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("--partitions must be >= 1, not " + partitions);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive, not " + timeout);
        }
    }

    /** The training set of {@code dataSpec} to {@code topic} once, at 1,000 a second, without drift. */
    public static StreamSettings of(final String dataSpec, final String topic) {
        return new StreamSettings(
                dataSpec,
                topic,
                false,
                DEFAULT_RATE,
                OptionalLong.empty(),
                false,
                OptionalLong.empty(),
                DEFAULT_PARTITIONS,
                DEFAULT_SEED,
                DEFAULT_TIMEOUT);
    }

    /** These settings with the test set ({@code true}) or the training set. */
    public StreamSettings withTestSet(final boolean test) {
        return new StreamSettings(dataSpec, topic, test, rate, count, loop, driftAt, partitions, seed, timeout);
    }

    /** These settings at {@code examplesPerSecond}, 0 for as fast as possible. */
    public StreamSettings withRate(final double examplesPerSecond) {
        return new StreamSettings(
                dataSpec, topic, testSet, examplesPerSecond, count, loop, driftAt, partitions, seed, timeout);
    }

    /** These settings stopping after {@code examples}. */
    public StreamSettings withCount(final long examples) {
        return new StreamSettings(
                dataSpec, topic, testSet, rate, OptionalLong.of(examples), loop, driftAt, partitions, seed, timeout);
    }

    /** These settings starting over at the end of the data set ({@code true}) or not. */
    public StreamSettings withLoop(final boolean again) {
        return new StreamSettings(dataSpec, topic, testSet, rate, count, again, driftAt, partitions, seed, timeout);
    }

    /** These settings with the labels of example {@code id} and later permuted. */
    public StreamSettings withDriftAt(final long id) {
        return new StreamSettings(
                dataSpec, topic, testSet, rate, count, loop, OptionalLong.of(id), partitions, seed, timeout);
    }

    /** These settings creating a missing topic with {@code count} partitions. */
    public StreamSettings withPartitions(final int count) {
        return new StreamSettings(dataSpec, topic, testSet, rate, this.count, loop, driftAt, count, seed, timeout);
    }

    /** These settings with the drift's permutation drawn from {@code drift}. */
    public StreamSettings withSeed(final long drift) {
        return new StreamSettings(dataSpec, topic, testSet, rate, count, loop, driftAt, partitions, drift, timeout);
    }

    /** These settings waiting at most {@code wait} for each call to the broker or the registry. */
    public StreamSettings withTimeout(final Duration wait) {
        return new StreamSettings(dataSpec, topic, testSet, rate, count, loop, driftAt, partitions, seed, wait);
    }

    /** {@code duration} for a message: {@code 30 s}, {@code 0.5 s}. */
    static String seconds(final Duration duration) {
        return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }
}
