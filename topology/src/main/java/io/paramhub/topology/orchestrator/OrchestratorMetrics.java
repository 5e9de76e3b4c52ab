package io.paramhub.topology.orchestrator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.paramhub.avro.ResourceCommand;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The orchestrator topology's own meters: {@code paramhub.orchestrator.commands.issued}, by job;
 * {@code paramhub.orchestrator.placements.issued}; {@code paramhub.orchestrator.telemetry.refused} (not by job: a
 * refused record may name any job); and the scaling recommendation for the aggregators,
 * {@code paramhub.orchestrator.aggregators.recommended} (instances, 0 before the first) and
 * {@code paramhub.orchestrator.aggregators.predicted.gain} (fraction of a round's server time), which an
 * autoscaler can act on.
 */
public final class OrchestratorMetrics {

    private final MeterRegistry registry;
    private final AtomicLong recommended = new AtomicLong();
    private final AtomicLong gainMillionths = new AtomicLong();
    private final Counter placements;
    private final Counter refusedTelemetry;

    public OrchestratorMetrics(final MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("paramhub.orchestrator.aggregators.recommended", recommended, AtomicLong::get)
                .description("Aggregator instances the orchestrator recommends (0: no measure yet)")
                .register(registry);
        Gauge.builder("paramhub.orchestrator.aggregators.predicted.gain", gainMillionths, g -> g.get() / 1e6)
                .description("Predicted shortening of a round's server time with the recommended instance count")
                .register(registry);
        refusedTelemetry = Counter.builder("paramhub.orchestrator.telemetry.refused")
                .description("Records of telemetry from a worker not in its job, dead-lettered (UNKNOWN_WORKER)")
                .register(registry);
        placements = Counter.builder("paramhub.orchestrator.placements.issued")
                .description("Placements of shard partitions on aggregator instances issued")
                .register(registry);
    }

    void recommendation(final int instances, final double gain) {
        recommended.set(instances);
        gainMillionths.set(Math.round(gain * 1e6));
    }

    void placed() {
        placements.increment();
    }

    /** Aggregator instances recommended, 0 before the first measure. */
    public long recommendedAggregators() {
        return recommended.get();
    }

    /** Placements issued by this instance. */
    public long placementsIssued() {
        return (long) placements.count();
    }

    /** Meters that nobody reads, for tests and tools that do not export them. */
    public static OrchestratorMetrics unregistered() {
        return new OrchestratorMetrics(new SimpleMeterRegistry());
    }

    /** A record of telemetry from a worker not in its job, dead-lettered. */
    void refused() {
        refusedTelemetry.increment();
    }

    /** Records of telemetry from workers not in their job, dead-lettered by this instance. */
    public long refusedTelemetry() {
        return (long) refusedTelemetry.count();
    }

    void issued(final ResourceCommand command) {
        commands(command.getJob()).increment();
    }

    /** Removes the meters of {@code job}, deleted. */
    void forget(final String job) {
        registry.find("paramhub.orchestrator.commands.issued")
                .tag("job", job)
                .meters()
                .forEach(registry::remove);
    }

    /** Whether any meter of {@code job} is registered. */
    public boolean hasMeters(final String job) {
        return !registry.find("paramhub.orchestrator.commands.issued")
                .tag("job", job)
                .meters()
                .isEmpty();
    }

    /** Resource commands issued for {@code job} by this instance. */
    public long issuedCount(final String job) {
        return (long) commands(job).count();
    }

    private Counter commands(final String job) {
        return Counter.builder("paramhub.orchestrator.commands.issued")
                .tag("job", job)
                .description("Resource commands issued (one per worker of each plan)")
                .register(registry);
    }
}
