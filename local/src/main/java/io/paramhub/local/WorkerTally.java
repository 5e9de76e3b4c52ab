package io.paramhub.local;

import io.paramhub.avro.IterationTelemetry;
import java.util.Map;
import java.util.TreeMap;

/** Per worker, from its telemetry: iterations, samples, mean compute and wait time per iteration, last share. */
final class WorkerTally implements RunListener {

    /** One worker's totals. */
    record Totals(long iterations, long samples, double computeMs, double waitMs, double lastShare) {

        double meanComputeMs() {
            return iterations == 0 ? 0 : computeMs / iterations;
        }

        double meanWaitMs() {
            return iterations == 0 ? 0 : waitMs / iterations;
        }

        /** Samples per compute-second. */
        double speed() {
            return computeMs == 0 ? 0 : samples / (computeMs / 1000);
        }
    }

    private final Map<String, Totals> byWorker = new TreeMap<>();

    @Override
    public synchronized void onIteration(final IterationTelemetry telemetry) {
        byWorker.merge(telemetry.getWorker(), new Totals(1, telemetry.getSamples(), telemetry.getComputeMs(),
            telemetry.getWaitMs(), telemetry.getBatchShare()), (a, b) -> new Totals(a.iterations() + b.iterations(),
            a.samples() + b.samples(), a.computeMs() + b.computeMs(), a.waitMs() + b.waitMs(), b.lastShare()));
    }

    synchronized Map<String, Totals> totals() {
        return new TreeMap<>(byWorker);
    }
}
