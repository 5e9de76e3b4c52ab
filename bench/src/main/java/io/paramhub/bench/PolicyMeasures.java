package io.paramhub.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Computes a policy's figures from what its run recorded: the workers' iterations and the metric
 * samples. Time zero is the first compute of clock 0. A worker's first iteration is left out of the
 * iteration-time and idle figures, since its wait is start-up (broker, job, other workers joining),
 * not synchronisation.
 */
final class PolicyMeasures {

    private PolicyMeasures() {}

    /**
     * @param idealS  the heterogeneous ideal time of the run's work, 0 when undefined
     * @param windows how many equal windows the iteration-time series cuts the training time into
     */
    static PolicyOutcome compute(
            final String job,
            final List<IterationRecord> iterations,
            final List<MetricSample> samples,
            final BenchTask task,
            final double target,
            final double finalMetric,
            final double idealS,
            final int windows) {
        if (iterations.isEmpty()) {
            throw new IllegalStateException("job " + job + " reported no iteration");
        }
        final long origin = iterations.stream()
                .mapToLong(IterationRecord::computeStartNanos)
                .min()
                .orElseThrow();
        final long end =
                iterations.stream().mapToLong(IterationRecord::endNanos).max().orElseThrow();
        final double trainS = seconds(end - origin);
        final List<IterationRecord> steady = steadyIterations(iterations);

        final List<PolicyOutcome.MetricPoint> metric = new ArrayList<>();
        Double timeToTarget = null;
        for (final MetricSample sample : samples) {
            final double at = Math.max(0, seconds(sample.nanos() - origin));
            metric.add(new PolicyOutcome.MetricPoint(at, sample.version(), sample.metric()));
            if (timeToTarget == null && task.reaches(sample.metric(), target)) {
                timeToTarget = at;
            }
        }

        double wait = 0;
        double compute = 0;
        for (final IterationRecord iteration : steady) {
            wait += iteration.waitMs();
            compute += iteration.computeMs();
        }
        final double allCompute =
                iterations.stream().mapToDouble(IterationRecord::computeMs).sum();
        final long workerCount =
                iterations.stream().map(IterationRecord::worker).distinct().count();

        return new PolicyOutcome(
                job,
                trainS,
                timeToTarget,
                idealS > 0 ? idealS / trainS : null,
                mean(steady, IterationRecord::iterationMs),
                sd(steady, IterationRecord::iterationMs),
                mean(steady, IterationRecord::computeMs),
                sd(steady, IterationRecord::computeMs),
                wait + compute == 0 ? 0 : wait / (wait + compute),
                allCompute / 1000 / (workerCount * trainS),
                criticalPathS(iterations),
                finalMetric,
                metric,
                windows(steady, origin, trainS, windows),
                perWorker(iterations));
    }

    /** Σ over clocks of the largest compute any worker reported for that clock, in seconds. */
    static double criticalPathS(final List<IterationRecord> iterations) {
        final Map<Long, Double> slowest = new TreeMap<>();
        for (final IterationRecord iteration : iterations) {
            slowest.merge(iteration.clock(), iteration.computeMs(), Math::max);
        }
        return slowest.values().stream().mapToDouble(Double::doubleValue).sum() / 1000;
    }

    /** Every iteration but each worker's first. */
    static List<IterationRecord> steadyIterations(final List<IterationRecord> iterations) {
        final Map<String, Long> first = new TreeMap<>();
        for (final IterationRecord iteration : iterations) {
            first.merge(iteration.worker(), iteration.clock(), Math::min);
        }
        return iterations.stream()
                .filter(iteration -> iteration.clock() != first.get(iteration.worker()))
                .toList();
    }

    private static List<PolicyOutcome.IterationWindow> windows(
            final List<IterationRecord> steady, final long origin, final double trainS, final int count) {
        final List<PolicyOutcome.IterationWindow> result = new ArrayList<>();
        final double width = trainS / count;
        for (int w = 0; w < count; w++) {
            final double from = w * width;
            final double to = w == count - 1 ? Double.POSITIVE_INFINITY : from + width;
            final List<IterationRecord> inside = steady.stream()
                    .filter(iteration -> {
                        final double at = seconds(iteration.endNanos() - origin);
                        return at >= from && at < to;
                    })
                    .toList();
            if (!inside.isEmpty()) {
                result.add(new PolicyOutcome.IterationWindow(
                        from,
                        w == count - 1 ? trainS : to,
                        inside.size(),
                        mean(inside, IterationRecord::iterationMs),
                        sd(inside, IterationRecord::iterationMs)));
            }
        }
        return result;
    }

    private static List<PolicyOutcome.WorkerSummary> perWorker(final List<IterationRecord> iterations) {
        final Map<String, List<IterationRecord>> byWorker = new TreeMap<>();
        for (final IterationRecord iteration : iterations) {
            byWorker.computeIfAbsent(iteration.worker(), worker -> new ArrayList<>())
                    .add(iteration);
        }
        final List<PolicyOutcome.WorkerSummary> result = new ArrayList<>();
        byWorker.forEach((worker, own) -> {
            final List<IterationRecord> ordered = own.stream()
                    .sorted(Comparator.comparingLong(IterationRecord::clock))
                    .toList();
            final IterationRecord first = ordered.get(0);
            final IterationRecord last = ordered.get(ordered.size() - 1);
            final long samples =
                    ordered.stream().mapToLong(IterationRecord::samples).sum();
            final double computeS =
                    ordered.stream().mapToDouble(IterationRecord::computeMs).sum() / 1000;
            final double waitS = ordered.stream()
                            .skip(1)
                            .mapToDouble(IterationRecord::waitMs)
                            .sum()
                    / 1000;
            result.add(new PolicyOutcome.WorkerSummary(
                    worker,
                    ordered.size(),
                    samples,
                    computeS,
                    waitS,
                    first.waitMs() / 1000,
                    computeS == 0 ? 0 : samples / computeS,
                    last.share(),
                    last.threads()));
        });
        return result;
    }

    static double mean(final List<IterationRecord> iterations, final ToDoubleFunction<IterationRecord> value) {
        return iterations.stream().mapToDouble(value).average().orElse(0);
    }

    /** Population standard deviation. */
    static double sd(final List<IterationRecord> iterations, final ToDoubleFunction<IterationRecord> value) {
        if (iterations.isEmpty()) {
            return 0;
        }
        final double mean = mean(iterations, value);
        final double squares = iterations.stream()
                .mapToDouble(value)
                .map(v -> (v - mean) * (v - mean))
                .sum();
        return Math.sqrt(squares / iterations.size());
    }

    private static double seconds(final long nanos) {
        return nanos / 1e9;
    }
}
