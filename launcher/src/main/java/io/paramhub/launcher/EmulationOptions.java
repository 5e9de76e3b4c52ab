package io.paramhub.launcher;

import picocli.CommandLine.Option;

/**
 * Emulated compute (a picocli mixin): {@code --sample-cost-us}, the least time each sample costs, padded by
 * sleeping, so that a few workers on a small machine measure the protocol rather than CPU contention. Taken by
 * {@code paramhub-worker}, {@code paramhub demo} and {@code paramhub bench}; null when not given, each applies
 * its own default ({@code paramhub-worker}: {@link #DEFAULT_SAMPLE_COST_US}). The description here is the
 * worker's; the {@code paramhub} command gives its own in its resource bundle (see {@link ClusterOptions}).
 *
 * <p>How slow a worker is, {@code --slowdown}, is not here: the worker takes its own factor, the
 * {@code paramhub} commands one per worker index ({@code I:F[@CLOCK]}).
 */
public final class EmulationOptions {

    /** The worker's default: the real cost only. */
    public static final long DEFAULT_SAMPLE_COST_US = 0;

    @Option(
            names = "--sample-cost-us",
            description = "Emulated compute cost: each sample costs at least this many microseconds, padded by "
                    + "sleeping; 0 = the real cost only (default: " + DEFAULT_SAMPLE_COST_US + ").")
    private Long sampleCostMicros;

    /** {@code --sample-cost-us}, or null when not given. */
    public Long sampleCostMicros() {
        return sampleCostMicros;
    }

    /** {@code --sample-cost-us}, or {@code otherwise} when not given. */
    public long sampleCostMicros(final long otherwise) {
        return sampleCostMicros != null ? sampleCostMicros : otherwise;
    }
}
