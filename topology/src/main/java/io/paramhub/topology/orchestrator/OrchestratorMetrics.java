package io.paramhub.topology.orchestrator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.paramhub.avro.ResourceCommand;

/** The orchestrator topology's own meters: {@code paramhub.orchestrator.commands.issued}, by job. */
public final class OrchestratorMetrics {

    private final MeterRegistry registry;

    public OrchestratorMetrics(final MeterRegistry registry) {
        this.registry = registry;
    }

    /** Meters that nobody reads, for tests and tools that do not export them. */
    public static OrchestratorMetrics unregistered() {
        return new OrchestratorMetrics(new SimpleMeterRegistry());
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
