package io.paramhub.orchestrator.dashboard;

import java.util.ArrayList;
import java.util.List;

/**
 * A job's test metric (accuracy, or RMSE for regression) as its model advances: one point per evaluated
 * model version, at most {@code maxPoints} (when full, every other older point is dropped, keeping the
 * first and the newest), and why there are none when the test set cannot be had.
 */
final class TestCurve {

    /** The metric of model {@code version}, which includes clocks up to {@code clock}. */
    record Point(long clock, long version, double value, long evaluatedAtMs) {}

    private final int maxPoints;
    private final List<Point> points = new ArrayList<>();
    private String metric;
    private String unavailable;
    private int testSamples;

    TestCurve(final int maxPoints) {
        if (maxPoints < 4) {
            throw new IllegalArgumentException("maxPoints must be at least 4, was " + maxPoints);
        }
        this.maxPoints = maxPoints;
    }

    void add(final String metricName, final int samples, final Point point) {
        metric = metricName;
        testSamples = samples;
        unavailable = null;
        points.add(point);
        if (points.size() > maxPoints) {
            final List<Point> thinned = new ArrayList<>();
            for (int i = 0; i < points.size() - 1; i += 2) {
                thinned.add(points.get(i));
            }
            thinned.add(points.get(points.size() - 1));
            points.clear();
            points.addAll(thinned);
        }
    }

    /** No evaluation is possible, and why ("no test set: ..."). */
    void unavailable(final String why) {
        unavailable = why;
    }

    List<Point> points() {
        return List.copyOf(points);
    }

    /** "accuracy" or "rmse", null before the first evaluation. */
    String metric() {
        return metric;
    }

    /** Why there is no evaluation, null when there is or may yet be one. */
    String unavailableBecause() {
        return unavailable;
    }

    int testSamples() {
        return testSamples;
    }
}
