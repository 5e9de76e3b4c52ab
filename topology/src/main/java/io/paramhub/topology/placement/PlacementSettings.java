package io.paramhub.topology.placement;

import java.time.Duration;

/**
 * How the orchestrator measures aggregator instances and decides placements of shard partitions.
 *
 * @param window        shard-rounds per instance in its speed window (count-based, sliding); an instance is
 *                      judged once it has at least half of them
 * @param slowThreshold an instance is slow when its ms per shard-round exceeds the median instance's by more
 *                      than this fraction
 * @param minGain       smallest predicted shortening of a round's server time, as a fraction, worth a move
 * @param minStreak     evaluations in a row the gain must hold before a placement is issued
 * @param minInterval   time between two placements, and how long a placement has to take effect before
 *                      another is considered
 * @param evaluateEvery how often the placement is evaluated (wall-clock time)
 * @param forgetAfter   an instance silent this long is no longer placed on
 * @param scaleOutGain  recommend one more instance when that shortens the predicted round by this fraction
 * @param scaleInLoss   recommend one fewer when that lengthens the predicted round by at most this fraction
 * @param issues        publish placements; false: measure, flag and recommend only
 */
public record PlacementSettings(
        int window,
        double slowThreshold,
        double minGain,
        int minStreak,
        Duration minInterval,
        Duration evaluateEvery,
        Duration forgetAfter,
        double scaleOutGain,
        double scaleInLoss,
        boolean issues) {

    public PlacementSettings {
        if (window < 2) {
            throw new IllegalArgumentException("window must be at least 2, was " + window);
        }
        if (!(slowThreshold > 0 && slowThreshold < 10)) {
            throw new IllegalArgumentException("slowThreshold must be in (0, 10), was " + slowThreshold);
        }
        if (!(minGain >= 0 && minGain < 1) || minStreak < 1) {
            throw new IllegalArgumentException("minGain must be in [0, 1) and minStreak at least 1");
        }
        if (minInterval.isNegative()
                || evaluateEvery.isNegative()
                || evaluateEvery.isZero()
                || forgetAfter.isNegative()
                || forgetAfter.isZero()) {
            throw new IllegalArgumentException("intervals must be positive");
        }
    }

    /**
     * Window 10 shard-rounds, slow at 20% above the median (as workers), gain 10%, held 3 evaluations of 1 s,
     * 10 s between placements, instances forgotten after 60 s, scale out for 20%, in for at most 5%.
     */
    public static PlacementSettings defaults() {
        return new PlacementSettings(
                10,
                0.2,
                0.1,
                3,
                Duration.ofSeconds(10),
                Duration.ofSeconds(1),
                Duration.ofSeconds(60),
                0.2,
                0.05,
                true);
    }

    /** These settings, measuring and recommending but publishing no placement. */
    public PlacementSettings observeOnly() {
        return new PlacementSettings(
                window,
                slowThreshold,
                minGain,
                minStreak,
                minInterval,
                evaluateEvery,
                forgetAfter,
                scaleOutGain,
                scaleInLoss,
                false);
    }
}
