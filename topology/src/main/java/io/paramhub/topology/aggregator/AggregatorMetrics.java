package io.paramhub.topology.aggregator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.ModelShard;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The aggregator's own metrics: gradients applied, model versions published, dead letters by
 * reason, the observed staleness of applied gradients (shard version at arrival minus the
 * version the gradient was computed on; a histogram), and per job and shard the version and
 * minClock of the last model published.
 */
public final class AggregatorMetrics {

    private final Counter applied;
    private final Counter published;
    private final Map<DeadLetterReason, Counter> deadLetters = new EnumMap<>(DeadLetterReason.class);
    private final DistributionSummary staleness;
    private final MeterRegistry registry;
    private final Map<String, long[]> models = new ConcurrentHashMap<>();
    private final Map<String, List<Gauge>> modelGauges = new ConcurrentHashMap<>();
    private final Set<String> stuck = ConcurrentHashMap.newKeySet();

    public AggregatorMetrics(final MeterRegistry registry) {
        this.registry = registry;
        applied = Counter.builder("paramhub.aggregator.gradients.applied")
                .description("Gradient shards summed into a model update")
                .register(registry);
        published = Counter.builder("paramhub.aggregator.model.updates")
                .description("Model shard versions published")
                .register(registry);
        for (final DeadLetterReason reason : DeadLetterReason.values()) {
            deadLetters.put(
                    reason,
                    Counter.builder("paramhub.aggregator.dead.letters")
                            .description("Records sent to dead-letters")
                            .tag("reason", reason.name())
                            .register(registry));
        }
        Gauge.builder("paramhub.aggregator.shards.stuck", stuck, Set::size)
                .description("Shards a restore could not rebuild (gradients deleted by retention), not served")
                .register(registry);
        staleness = DistributionSummary.builder("paramhub.aggregator.staleness")
                .description("Shard version at arrival minus the version a gradient was computed on")
                .baseUnit("versions")
                .publishPercentiles(0.5, 0.99)
                // buckets for Prometheus; 0.5 holds the gradients computed on the current version
                .serviceLevelObjectives(0.5, 1, 2, 4, 8, 16, 32, 64, 128)
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

    void deadLetter(final DeadLetterReason reason) {
        deadLetters.get(reason).increment();
    }

    /** Counts {@code shard}, just published, and its version and minClock gauges follow it. */
    void model(final ModelShard shard) {
        published.increment();
        final long[] latest = models.computeIfAbsent(shard.getJob() + "/" + shard.getShard(), key -> {
            final long[] values = {-1, -1};
            final Tags tags = Tags.of("job", shard.getJob(), "shard", Integer.toString(shard.getShard()));
            modelGauges.put(
                    key,
                    List.of(
                            Gauge.builder("paramhub.aggregator.model.version", values, v -> v[0])
                                    .tags(tags)
                                    .description("Version of the shard's last published model")
                                    .register(registry),
                            Gauge.builder("paramhub.aggregator.model.min.clock", values, v -> v[1])
                                    .tags(tags)
                                    .description("minClock of the shard's last published model: clocks every live "
                                            + "worker has finished")
                                    .register(registry)));
            return values;
        });
        latest[0] = shard.getVersion();
        latest[1] = shard.getMinClock();
    }

    /** Shard {@code key} ({@code job/shard}) is stuck: a restore could not rebuild it. */
    void stuck(final String key) {
        stuck.add(key);
    }

    /** How many shards are stuck on this instance. */
    public int stuckShards() {
        return stuck.size();
    }

    /** Removes the gauges of shard {@code key} ({@code job/shard}) of a deleted job, and its stuck mark. */
    void forget(final String key) {
        stuck.remove(key);
        models.remove(key);
        final List<Gauge> gauges = modelGauges.remove(key);
        if (gauges != null) {
            gauges.forEach(registry::remove);
        }
    }

    /** How many shards have version and minClock gauges here. */
    public int shardsWithGauges() {
        return modelGauges.size();
    }

    /** Version of the last model of {@code job}'s {@code shard} published by this instance, -1 before any. */
    public long modelVersion(final String job, final int shard) {
        final long[] latest = models.get(job + "/" + shard);
        return latest == null ? -1 : latest[0];
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
        return deadLetters.values().stream()
                .mapToLong(counter -> (long) counter.count())
                .sum();
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
