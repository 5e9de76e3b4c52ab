package io.paramhub.worker;

/**
 * Emulated heterogeneity for tests and benchmarks, so that several workers on a small machine measure
 * the protocol and not CPU contention: each sample costs at least {@code sampleCostMicros} of compute
 * (the real gradient is still computed, the rest is padded by sleeping), and from clock
 * {@code slowdownFromClock} on the worker is {@code slowdown} times slower.
 */
public record ComputeEmulation(double slowdown, long slowdownFromClock, long sampleCostMicros) {

    public static final ComputeEmulation NONE = new ComputeEmulation(1.0, 0, 0);

    public ComputeEmulation {
        if (!(slowdown >= 1.0)) {
            throw new IllegalArgumentException("slowdown must be >= 1, not " + slowdown);
        }
        if (slowdownFromClock < 0 || sampleCostMicros < 0) {
            throw new IllegalArgumentException("slowdown clock and sample cost must be >= 0");
        }
    }

    /**
     * How long computing {@code samples} samples at {@code clock} with {@code threads} compute threads
     * should take, given it really took {@code realMs}. The emulated cost divides evenly among the
     * threads (a node granted k threads has k free cores), which is what the orchestrator's resource
     * lever assumes; the slowdown multiplies whatever the threads achieve.
     */
    public double targetMs(final double realMs, final int samples, final long clock, final int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, not " + threads);
        }
        final double base = Math.max(realMs, samples * sampleCostMicros / 1000.0 / threads);
        return clock >= slowdownFromClock ? base * slowdown : base;
    }

    public boolean active() {
        return slowdown > 1.0 || sampleCostMicros > 0;
    }
}
