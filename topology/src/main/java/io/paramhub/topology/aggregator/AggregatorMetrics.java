package io.paramhub.topology.aggregator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.paramhub.avro.DeadLetterReason;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The aggregator's own metrics: gradients applied, model versions published, dead letters by
 * reason, and the observed staleness of applied gradients (shard version at arrival minus the
 * version the gradient was computed on).
 */
public final class AggregatorMetrics {

    private final Counter applied;
    private final Counter published;
    private final Map<DeadLetterReason, Counter> deadLetters = new EnumMap<>(DeadLetterReason.class);
    private final DistributionSummary staleness;

    public AggregatorMetrics(final MeterRegistry registry) {
        applied = Counter.builder("paramhub.aggregator.gradients.applied")
            .description("Gradient shards summed into a model update").register(registry);
        published = Counter.builder("paramhub.aggregator.model.updates")
            .description("Model shard versions published").register(registry);
        for (final DeadLetterReason reason : DeadLetterReason.values()) {
            deadLetters.put(reason, Counter.builder("paramhub.aggregator.dead.letters")
                .description("Records sent to dead-letters").tag("reason", reason.name()).register(registry));
        }
        staleness = DistributionSummary.builder("paramhub.aggregator.staleness")
            .description("Shard version at arrival minus the version a gradient was computed on")
            .baseUnit("versions")
            .publishPercentiles(0.5, 0.99)
            .distributionStatisticExpiry(Duration.ofDays(7))
            .distributionStatisticBufferLength(1)
            .register(registry);
    }

    /** Metrics that nobody reads, for tests and tools that do not export them. */
    public static AggregatorMetrics unregistered() {
        return new AggregatorMetrics(new SimpleMeterRegistry());
    }

    void applied(final int gradients) {
        applied.increment(gradients);
    }

    void published() {
        published.increment();
    }

    void deadLetter(final DeadLetterReason reason) {
        deadLetters.get(reason).increment();
    }

    void staleness(final long versions) {
        staleness.record(versions);
    }

    public long appliedCount() {
        return (long) applied.count();
    }

    public long deadLetterCount(final DeadLetterReason reason) {
        return (long) deadLetters.get(reason).count();
    }

    public long deadLetterCount() {
        return deadLetters.values().stream().mapToLong(counter -> (long) counter.count()).sum();
    }

    /** Largest staleness observed, 0 before any gradient. */
    public double maxStaleness() {
        return staleness.max();
    }

    /** The 99th percentile of observed staleness, 0 before any gradient. */
    public double p99Staleness() {
        final HistogramSnapshot snapshot = staleness.takeSnapshot();
        for (final ValueAtPercentile value : snapshot.percentileValues()) {
            if (value.percentile() == 0.99) {
                return value.value();
            }
        }
        return 0;
    }
}
