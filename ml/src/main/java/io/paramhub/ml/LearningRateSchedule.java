package io.paramhub.ml;

/**
 * How the learning rate changes over a job: the factor an {@link Optimizer}'s configured rate is
 * multiplied by for the update of clock {@code c} (0-based). A function of the clock alone, so the
 * aggregator's shards, the reference trainer and a replay all use the same rate for the same clock.
 *
 * <ul>
 *   <li>constant: 1 at every clock;</li>
 *   <li>cosine over {@code T} clocks: {@code (1 + cos(pi c / T)) / 2}, from 1 at clock 0 towards 0
 *   at clock {@code T}, and 0 from then on (Loshchilov and Hutter's annealing without restarts).</li>
 * </ul>
 */
public final class LearningRateSchedule {

    private static final LearningRateSchedule CONSTANT = new LearningRateSchedule(0);

    private final long decayClocks;

    private LearningRateSchedule(final long decayClocks) {
        this.decayClocks = decayClocks;
    }

    /** The configured rate at every clock. */
    public static LearningRateSchedule constant() {
        return CONSTANT;
    }

    /**
     * Cosine decay from the configured rate to 0 over {@code decayClocks} clocks.
     *
     * @throws IllegalArgumentException unless {@code decayClocks >= 1}
     */
    public static LearningRateSchedule cosine(final long decayClocks) {
        if (decayClocks < 1) {
            throw new IllegalArgumentException("cosine decay needs >= 1 clock, got " + decayClocks);
        }
        return new LearningRateSchedule(decayClocks);
    }

    /** The factor for the update of {@code clock}: in [0, 1], never increasing. */
    public double factor(final long clock) {
        if (clock < 0) {
            throw new IllegalArgumentException("clock must be >= 0, got " + clock);
        }
        if (decayClocks == 0) {
            return 1.0;
        }
        if (clock >= decayClocks) {
            return 0.0;
        }
        return 0.5 * (1 + Math.cos(Math.PI * clock / decayClocks));
    }

    @Override
    public String toString() {
        return decayClocks == 0 ? "constant" : "cosine(" + decayClocks + " clocks)";
    }
}
