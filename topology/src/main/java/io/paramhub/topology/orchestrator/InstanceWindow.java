package io.paramhub.topology.orchestrator;

import io.paramhub.topology.placement.PlacementPlanner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** The last few shard-round times of one aggregator instance, and when it last reported. */
final class InstanceWindow {

    private final int size;
    private final Deque<Double> roundMs = new ArrayDeque<>();
    private long lastSeenMs;

    InstanceWindow(final int size) {
        this.size = size;
    }

    /** A shard-round of {@code ms} that ended at {@code atMs} (the instance's clock). */
    void add(final double ms, final long atMs) {
        roundMs.addLast(ms);
        while (roundMs.size() > size) {
            roundMs.removeFirst();
        }
        lastSeenMs = Math.max(lastSeenMs, atMs);
    }

    int count() {
        return roundMs.size();
    }

    long lastSeenMs() {
        return lastSeenMs;
    }

    /** The median shard-round time: a GC pause or a restore in one round does not move it. */
    double medianMs() {
        final List<Double> sorted = new ArrayList<>(roundMs);
        return PlacementPlanner.median(sorted);
    }

    /** Relative standard error of the mean round time: how far apart two instances must be to differ. */
    double noise() {
        final int n = roundMs.size();
        if (n < 2) {
            return 0;
        }
        double sum = 0;
        for (final double ms : roundMs) {
            sum += ms;
        }
        final double mean = sum / n;
        double squares = 0;
        for (final double ms : roundMs) {
            squares += (ms - mean) * (ms - mean);
        }
        return mean > 0 ? Math.sqrt(squares / (n - 1)) / mean / Math.sqrt(n) : 0;
    }
}
