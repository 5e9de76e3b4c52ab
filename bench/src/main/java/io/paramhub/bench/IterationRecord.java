package io.paramhub.bench;

import io.paramhub.avro.IterationTelemetry;

/**
 * One worker iteration as the bench saw it: the worker's telemetry and when, on this JVM's
 * {@link System#nanoTime()} clock, it was reported (right after the gradient was sent). The
 * iteration waited {@code waitMs} for the model, then computed {@code computeMs}, then ended.
 */
public record IterationRecord(
        String worker,
        long clock,
        int samples,
        double computeMs,
        double waitMs,
        int threads,
        double share,
        long endNanos) {

    static IterationRecord of(final IterationTelemetry telemetry, final long endNanos) {
        return new IterationRecord(
                telemetry.getWorker(),
                telemetry.getClock(),
                telemetry.getSamples(),
                telemetry.getComputeMs(),
                telemetry.getWaitMs(),
                telemetry.getThreads(),
                telemetry.getBatchShare(),
                endNanos);
    }

    /** When the compute started, in nanoseconds. */
    long computeStartNanos() {
        return endNanos - (long) (computeMs * 1e6);
    }

    /** When the wait for the model started, in nanoseconds. */
    long waitStartNanos() {
        return computeStartNanos() - (long) (waitMs * 1e6);
    }

    /** Wait and compute: how long the iteration lasted for its worker. */
    double iterationMs() {
        return computeMs + waitMs;
    }
}
