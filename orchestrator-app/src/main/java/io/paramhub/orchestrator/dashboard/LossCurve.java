package io.paramhub.orchestrator.dashboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A job's training loss by clock, from {@code telemetry}: the mean loss per sample over buckets of
 * consecutive clocks (every worker's loss and samples of those clocks added up). It keeps at most
 * {@code maxPoints} buckets: when a new clock would need one more, the bucket width doubles and
 * neighbours merge, which is exact, since a bucket holds sums.
 */
final class LossCurve {

    /** One bucket: clocks {@code [firstClock, firstClock + width)}, their mean loss per sample. */
    record Point(long firstClock, double meanLoss, long samples) {}

    private final int maxPoints;
    private final TreeMap<Long, double[]> buckets = new TreeMap<>();
    private long width = 1;

    LossCurve(final int maxPoints) {
        if (maxPoints < 2) {
            throw new IllegalArgumentException("maxPoints must be at least 2, was " + maxPoints);
        }
        this.maxPoints = maxPoints;
    }

    /** Adds one worker's iteration: its clock, the loss summed over its samples, and their count. */
    void add(final long clock, final double lossSum, final int samples) {
        if (samples <= 0 || clock < 0 || !Double.isFinite(lossSum)) {
            return;
        }
        final double[] bucket = buckets.computeIfAbsent(clock / width, index -> new double[2]);
        bucket[0] += lossSum;
        bucket[1] += samples;
        while (buckets.size() > maxPoints) {
            widen();
        }
    }

    /** Clocks per bucket. */
    long width() {
        return width;
    }

    List<Point> points() {
        final List<Point> points = new ArrayList<>(buckets.size());
        buckets.forEach((index, sums) -> points.add(new Point(index * width, sums[0] / sums[1], (long) sums[1])));
        return points;
    }

    private void widen() {
        width *= 2;
        final TreeMap<Long, double[]> merged = new TreeMap<>();
        for (final Map.Entry<Long, double[]> bucket : buckets.entrySet()) {
            final double[] into = merged.computeIfAbsent(bucket.getKey() / 2, index -> new double[2]);
            into[0] += bucket.getValue()[0];
            into[1] += bucket.getValue()[1];
        }
        buckets.clear();
        buckets.putAll(merged);
    }
}
