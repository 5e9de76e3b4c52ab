package io.paramhub.worker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.paramhub.avro.IterationTelemetry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A worker's own meters, from the telemetry of each iteration it finishes (tags {@code job}, {@code worker}):
 * iterations, samples, compute and barrier-wait time per iteration, gauges of its clock, threads, batch share
 * and mean loss of the last iteration, and {@code paramhub.worker.finished} (1 once it has finished its job, 0
 * while it trains: an alert on a model that stops advancing fires only for a job still training). Also tells
 * {@code /health/ready}: ready once the worker has computed on a model (so it has joined and holds one), until
 * it has finished.
 */
public final class WorkerMetrics implements IterationListener {

    private final Counter iterations;
    private final Counter samples;
    private final Timer compute;
    private final Timer waits;
    private final AtomicLong clock = new AtomicLong(-1);
    private final AtomicLong threads = new AtomicLong();
    private volatile double share = Double.NaN;
    private volatile double loss = Double.NaN;
    private volatile boolean finished;

    public WorkerMetrics(final MeterRegistry registry, final String job, final String worker) {
        final Tags tags = Tags.of("job", job, "worker", worker);
        iterations = Counter.builder("paramhub.worker.iterations")
                .tags(tags)
                .description("Iterations finished (gradients published for every shard)")
                .register(registry);
        samples = Counter.builder("paramhub.worker.samples")
                .tags(tags)
                .description("Samples computed on")
                .register(registry);
        compute = Timer.builder("paramhub.worker.iteration.compute")
                .tags(tags)
                .description("Time computing an iteration's gradient (including emulated cost)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        waits = Timer.builder("paramhub.worker.iteration.wait")
                .tags(tags)
                .description("Time waiting for the model the sync mode requires before an iteration (barrier wait)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
        Gauge.builder("paramhub.worker.clock", clock, AtomicLong::get)
                .tags(tags)
                .description("Last clock finished, -1 before the first")
                .register(registry);
        Gauge.builder("paramhub.worker.threads", threads, AtomicLong::get)
                .tags(tags)
                .description("Compute threads in the last iteration")
                .register(registry);
        Gauge.builder("paramhub.worker.batch.share", this, metrics -> metrics.share)
                .tags(tags)
                .description("Fraction of the global batch computed in the last iteration")
                .register(registry);
        Gauge.builder("paramhub.worker.loss", this, metrics -> metrics.loss)
                .tags(tags)
                .description("Mean loss over the samples of the last iteration")
                .register(registry);
        Gauge.builder("paramhub.worker.finished", this, metrics -> metrics.finished ? 1 : 0)
                .tags(tags)
                .description("1 once the worker has finished its job's last clock, 0 while it trains")
                .register(registry);
    }

    @Override
    public void onIteration(final IterationTelemetry telemetry) {
        iterations.increment();
        samples.increment(telemetry.getSamples());
        compute.record((long) (telemetry.getComputeMs() * 1e6), TimeUnit.NANOSECONDS);
        waits.record((long) (telemetry.getWaitMs() * 1e6), TimeUnit.NANOSECONDS);
        clock.set(telemetry.getClock());
        threads.set(telemetry.getThreads());
        share = telemetry.getBatchShare();
        loss = telemetry.getSamples() == 0 ? Double.NaN : telemetry.getLoss() / telemetry.getSamples();
    }

    /** The job's last clock is done: no longer ready for work. */
    public void finished() {
        finished = true;
    }

    /** Null when ready, else why not. */
    public String notReadyBecause() {
        if (finished) {
            return "the job is finished";
        }
        return clock.get() < 0 ? "not yet joined with a model" : null;
    }
}
