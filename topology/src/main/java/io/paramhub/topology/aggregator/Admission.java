package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;

/**
 * What a shard ({@link HotShard#admit}) makes of a gradient: its values and staleness, or why it is refused
 * and whether the refusal changed the shard (then to be stored).
 */
record Admission(GradientValues values, long lag, Rejection rejection, boolean changed) {

    /** Taken: its checked values, computed {@code lag} versions behind the shard. */
    static Admission accepted(final GradientValues values, final long lag) {
        return new Admission(values, lag, null, false);
    }

    static Admission refused(final Rejection rejection) {
        return new Admission(null, 0, rejection, false);
    }

    /** Holds the gradient of {@code worker}, of a stage other than the one that owns the shard. */
    static Admission notOfStage(final GradientShard gradient, final String worker, final int stage) {
        return refused(new Rejection(
                DeadLetterReason.UNKNOWN_WORKER,
                "worker " + worker + " does not compute pipeline stage " + stage + ", which owns shard "
                        + gradient.getShard() + " of job " + gradient.getJob()));
    }

    /** Holds a clock of {@code worker} already applied, or already {@code buffered}. */
    static Admission duplicate(final GradientShard gradient, final String worker, final boolean buffered) {
        return refused(new Rejection(
                DeadLetterReason.DUPLICATE,
                "clock " + gradient.getClock() + " of worker " + worker + " is already "
                        + (buffered ? "buffered" : "applied")));
    }

    /** More than {@code aheadBound} clocks ahead of the shard's {@code minClock}. */
    static Admission clockAhead(final GradientShard gradient, final long aheadBound, final long minClock) {
        return refused(new Rejection(
                DeadLetterReason.CLOCK_AHEAD,
                "clock " + gradient.getClock() + " of worker " + gradient.getWorker() + " is more than " + aheadBound
                        + " clocks ahead of shard " + gradient.getShard() + ", whose minClock is " + minClock));
    }

    /**
     * Computed on a version more than {@code versionBound} behind the shard's {@code version}; its clock now
     * counts as processed for its worker, a change to store.
     */
    static Admission stale(final GradientShard gradient, final long version, final long versionBound) {
        final long lag = version - gradient.getBaseVersion();
        return new Admission(
                null,
                lag,
                new Rejection(
                        DeadLetterReason.STALE,
                        "computed on version " + gradient.getBaseVersion() + " of shard " + gradient.getShard()
                                + ", which is at version " + version + ": staleness " + lag + " exceeds the bound "
                                + versionBound),
                true);
    }

    /** Refused: the gradient goes to {@code dead-letters}. */
    boolean refused() {
        return rejection != null;
    }
}
