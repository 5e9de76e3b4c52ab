package io.paramhub.ml;

/**
 * The SplitMix64 generator (Steele, Lea and Flood, 2014; the mixer is Stafford's variant 13), written out so
 * that a worker in any language draws the same numbers: the state goes up by {@link #GOLDEN_GAMMA} each draw
 * and the draw is the mixed state. The worker protocol's sample permutation is defined on it
 * (docs/protocol.md). Not thread-safe.
 */
public final class SplitMix64 {

    /** The state's increment, 2^64 divided by the golden ratio, odd. */
    public static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    /** A generator whose first draw mixes {@code seed + GOLDEN_GAMMA}. */
    public SplitMix64(final long seed) {
        this.state = seed;
    }

    /** The next 64 random bits. */
    public long nextLong() {
        state += GOLDEN_GAMMA;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * A number in {@code [0, bound)}: the high 64 bits of the next draw, read as unsigned, times {@code bound}
     * (Lemire's multiply-shift without rejection: one draw each, and a bias below bound / 2^64, which no data
     * set can show).
     *
     * @throws IllegalArgumentException unless {@code bound >= 1}
     */
    public int nextIndex(final int bound) {
        if (bound < 1) {
            throw new IllegalArgumentException("bound must be >= 1, got " + bound);
        }
        final long draw = nextLong();
        // unsigned high product: the signed one, plus bound when the draw's top bit is set
        return (int) (Math.multiplyHigh(draw, bound) + ((draw >> 63) & bound));
    }
}
