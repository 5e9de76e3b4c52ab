package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.IterationTelemetry;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What one worker last reported on {@code telemetry}, and its compute and barrier-wait times over its
 * last {@value #WINDOW} iterations. Telemetry of a clock at or below the last one seen is ignored, as
 * the orchestrator does.
 */
final class WorkerTrack {

    /** Iterations the wait figures are measured over. */
    static final int WINDOW = 20;

    private final Deque<double[]> window = new ArrayDeque<>();
    private IterationTelemetry last;
    private long iterations;

    /** Takes one iteration's telemetry; says whether it was newer than what was held. */
    boolean record(final IterationTelemetry telemetry) {
        if (last != null && telemetry.getClock() <= last.getClock()) {
            return false;
        }
        last = telemetry;
        iterations++;
        window.addLast(new double[] {telemetry.getComputeMs(), telemetry.getWaitMs()});
        while (window.size() > WINDOW) {
            window.removeFirst();
        }
        return true;
    }

    /** The newest telemetry, or null before any. */
    IterationTelemetry last() {
        return last;
    }

    long iterations() {
        return iterations;
    }

    /** Mean barrier wait per iteration over the window, ms. */
    double meanWaitMs() {
        return window.stream().mapToDouble(times -> times[1]).average().orElse(0);
    }

    /** Mean compute time per iteration over the window, ms. */
    double meanComputeMs() {
        return window.stream().mapToDouble(times -> times[0]).average().orElse(0);
    }

    /** Fraction of the window's time spent waiting at the barrier: wait / (wait + compute). */
    double waitFraction() {
        final double wait = window.stream().mapToDouble(times -> times[1]).sum();
        final double compute = window.stream().mapToDouble(times -> times[0]).sum();
        return wait + compute > 0 ? wait / (wait + compute) : 0;
    }
}
