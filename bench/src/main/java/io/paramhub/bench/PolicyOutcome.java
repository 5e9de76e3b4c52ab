package io.paramhub.bench;

import java.util.List;

/**
 * What one policy's run measured, in seconds from the start of training (the first compute of
 * clock 0). {@code timeToTargetS} is null when the target was never reached; {@code efficiencyVsIdeal}
 * is null when there is no emulated cost to define the ideal. {@code computeCriticalPathS} is the sum over
 * clocks of the slowest worker's compute at that clock: the training time this policy's split of the
 * work would take if communication were free (meaningful for the barrier policies, bsp and paramhub).
 */
public record PolicyOutcome(
        String job,
        double trainTimeS,
        Double timeToTargetS,
        Double efficiencyVsIdeal,
        double iterTimeMeanMs,
        double iterTimeSdMs,
        double computeTimeMeanMs,
        double computeTimeSdMs,
        double idleFraction,
        double utilization,
        double computeCriticalPathS,
        double finalMetric,
        List<MetricPoint> metricOverTime,
        List<IterationWindow> iterTimeOverTime,
        List<WorkerSummary> perWorker) {

    /** The test metric at {@code timeS}, of the model whose shards were at least at {@code version}. */
    public record MetricPoint(double timeS, long version, double metric) {}

    /** Mean and standard deviation of the iterations that ended in [fromS, toS), all workers together. */
    public record IterationWindow(double fromS, double toS, int iterations, double meanMs, double sdMs) {}

    /**
     * One worker: iterations, samples, compute and wait seconds (wait after its first iteration; the first
     * iteration's wait, start-up, apart), samples per compute-second, and its last share and threads.
     */
    public record WorkerSummary(
            String worker,
            long iterations,
            long samples,
            double computeS,
            double waitS,
            double startWaitS,
            double speed,
            double lastShare,
            int lastThreads) {}
}
