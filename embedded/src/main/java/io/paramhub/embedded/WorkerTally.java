package io.paramhub.embedded;

import io.paramhub.avro.IterationTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per worker, from its telemetry: iterations, samples, compute and barrier wait, last share and
 * threads. The first iteration's wait (start-up: the broker, the job, the other workers) is kept
 * apart from the barrier waits that follow.
 */
public final class WorkerTally implements RunListener {

    /** One worker's totals; {@code waitMs} sums the waits after its first iteration. */
    public record Totals(
            long iterations,
            long samples,
            double computeMs,
            double waitMs,
            double startWaitMs,
            double lastShare,
            int lastThreads,
            int stage,
            long parametersHeld,
            long activationBytes,
            double activationWaitMs) {

        public double meanComputeMs() {
            return iterations == 0 ? 0 : computeMs / iterations;
        }

        /** Mean barrier wait per iteration, after the first. */
        public double meanWaitMs() {
            return iterations <= 1 ? 0 : waitMs / (iterations - 1);
        }

        /** Mean wait per iteration for the neighbouring pipeline stages (hybrid jobs), first iteration included. */
        public double meanActivationWaitMs() {
            return iterations == 0 ? 0 : activationWaitMs / iterations;
        }

        /** Samples per compute-second. */
        public double speed() {
            return computeMs == 0 ? 0 : samples / (computeMs / 1000);
        }
    }

    private final Map<String, Totals> byWorker = new TreeMap<>();
    /** Every worker's barrier waits after its first iteration, in arrival order. */
    private final List<Double> barrierWaits = new ArrayList<>();

    private long firstIterationNanos;
    private long lastIterationNanos;

    @Override
    public synchronized void onIteration(final IterationTelemetry telemetry) {
        final long now = System.nanoTime();
        if (byWorker.isEmpty()) {
            firstIterationNanos = now;
        }
        lastIterationNanos = now;
        if (byWorker.containsKey(telemetry.getWorker())) {
            barrierWaits.add(telemetry.getWaitMs());
        }
        byWorker.merge(
                telemetry.getWorker(),
                new Totals(
                        1,
                        telemetry.getSamples(),
                        telemetry.getComputeMs(),
                        0,
                        telemetry.getWaitMs(),
                        telemetry.getBatchShare(),
                        telemetry.getThreads(),
                        telemetry.getStage(),
                        telemetry.getParametersHeld(),
                        telemetry.getActivationBytes(),
                        telemetry.getActivationWaitMs()),
                (a, b) -> new Totals(
                        a.iterations() + 1,
                        a.samples() + b.samples(),
                        a.computeMs() + b.computeMs(),
                        a.waitMs() + b.startWaitMs(),
                        a.startWaitMs(),
                        b.lastShare(),
                        b.lastThreads(),
                        b.stage(),
                        b.parametersHeld(),
                        a.activationBytes() + b.activationBytes(),
                        a.activationWaitMs() + b.activationWaitMs()));
    }

    /** Seconds from the first iteration reported to the last: the round loop, start-up left out. */
    public synchronized double trainingSeconds() {
        return (lastIterationNanos - firstIterationNanos) / 1e9;
    }

    /** Mean compute (ms) per iteration over every worker's iterations. */
    public synchronized double meanComputeMs() {
        final long iterations =
                byWorker.values().stream().mapToLong(Totals::iterations).sum();
        return iterations == 0
                ? 0
                : byWorker.values().stream().mapToDouble(Totals::computeMs).sum() / iterations;
    }

    /** Mean barrier wait (ms) over every worker's iterations but its first. */
    public synchronized double meanWaitMs() {
        return barrierWaits.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** The p-th percentile (0-100, nearest rank) of the barrier waits (ms) over every worker's iterations but its first. */
    public synchronized double waitMsPercentile(final double p) {
        return barrierWaits.isEmpty()
                ? 0
                : Percentiles.of(barrierWaits.stream().sorted().toList(), p);
    }

    public synchronized Map<String, Totals> totals() {
        return new TreeMap<>(byWorker);
    }

    /**
     * The fraction of their time after the first iteration that the given workers spent waiting at the
     * barrier: their summed waits over their summed waits and compute; 0 when there is nothing to count.
     */
    public synchronized double waitFraction(final Set<String> workers) {
        double wait = 0;
        double busy = 0;
        for (final String worker : workers) {
            final Totals totals = byWorker.get(worker);
            if (totals != null) {
                wait += totals.waitMs();
                busy += totals.waitMs() + totals.computeMs();
            }
        }
        return busy == 0 ? 0 : wait / busy;
    }
}
