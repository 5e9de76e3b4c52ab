package io.paramhub.embedded;

import java.util.List;

/** Nearest-rank percentiles of measured values, as the demo and replay reports give them. */
public final class Percentiles {

    private Percentiles() {}

    /** The p-th percentile (0-100) of sorted values, nearest rank; NaN when there are none. */
    public static double of(final List<Double> sorted, final double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        final int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
