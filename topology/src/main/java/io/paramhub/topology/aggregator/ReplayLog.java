package io.paramhub.topology.aggregator;

import io.paramhub.avro.AppliedClock;
import io.paramhub.ml.GradientSum;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * BSP: the clocks a shard applied since its newest full snapshot, oldest first, with the offsets of their
 * gradients in {@code gradients}, so that a restore can go from the snapshot to the stored version by applying
 * them again ({@link #readAgain}, {@link #nextReplayable}). Mutable; owned by one {@link HotShard}.
 */
final class ReplayLog {

    /** A clock of the log whose gradients have all been read again: its number and their mean. */
    record Replayable(long clock, float[] meanGradient) {}

    /** The version of the newest full snapshot in {@code shard-snapshot-store}; -1 before the first. */
    private long snapshotVersion;

    private final List<AppliedClock> clocks;
    /** Restore only: the gradients of {@link #clocks} read again so far, by offset. */
    private final Map<Long, PendingGradients.Pending> readAgain = new HashMap<>();
    /**
     * Restore only: how many clocks of {@link #clocks} have been applied again. They stay in the log: until
     * the next snapshot, a later restore must apply them again too.
     */
    private int replayedClocks;

    private ReplayLog(final long snapshotVersion, final List<AppliedClock> clocks) {
        this.snapshotVersion = snapshotVersion;
        this.clocks = clocks;
    }

    /** No snapshot yet, no clock applied. */
    static ReplayLog empty() {
        return new ReplayLog(-1, new ArrayList<>());
    }

    /** The log as stored with a shard's progress: on the snapshot of {@code snapshotVersion}. */
    static ReplayLog stored(final long snapshotVersion, final List<AppliedClock> clocks) {
        return new ReplayLog(snapshotVersion, new ArrayList<>(clocks));
    }

    long snapshotVersion() {
        return snapshotVersion;
    }

    boolean isEmpty() {
        return clocks.isEmpty();
    }

    /** A clock was applied with the gradients at {@code offsets}. */
    void applied(final long clock, final List<Long> offsets) {
        clocks.add(new AppliedClock(clock, offsets));
    }

    /** A snapshot was taken at {@code version}: nothing to apply again any more. */
    void snapshotTaken(final long version) {
        snapshotVersion = version;
        clocks.clear();
        replayedClocks = 0;
    }

    /**
     * Restore: keeps a gradient read again if a clock of the log not yet applied again summed it; says
     * whether it did.
     */
    boolean readAgain(final long offset, final PendingGradients.Pending gradient) {
        if (clocks.subList(replayedClocks, clocks.size()).stream()
                .noneMatch(clock -> clock.getOffsets().contains(offset))) {
            return false;
        }
        readAgain.put(offset, gradient);
        return true;
    }

    /**
     * Restore: the oldest clock not yet applied again, once every one of its gradients has been read again
     * (counted from then on as applied again); empty while one is missing.
     */
    Optional<Replayable> nextReplayable(final int length) {
        if (replayedClocks >= clocks.size()
                || !readAgain.keySet().containsAll(clocks.get(replayedClocks).getOffsets())) {
            return Optional.empty();
        }
        final AppliedClock clock = clocks.get(replayedClocks++);
        final GradientSum sum = new GradientSum(length);
        for (final long offset : clock.getOffsets()) {
            final PendingGradients.Pending gradient = readAgain.remove(offset);
            gradient.values().addTo(sum, gradient.samples());
        }
        return Optional.of(new Replayable(clock.getClock(), sum.mean()));
    }

    /** Restore: applies to {@code parameters} each clock whose gradients have all been read again, oldest first. */
    void applyReplayable(final ShardParameters parameters, final int length) {
        for (Optional<Replayable> next = nextReplayable(length); next.isPresent(); next = nextReplayable(length)) {
            parameters.step(next.get().meanGradient(), next.get().clock());
        }
    }

    /** The first clock a restore has not applied again yet, if any. */
    Optional<AppliedClock> unreplayed() {
        return replayedClocks < clocks.size() ? Optional.of(clocks.get(replayedClocks)) : Optional.empty();
    }

    /** The smallest offset a restore must read again from, or {@code Long.MAX_VALUE}. */
    long oldestOffset() {
        long oldest = Long.MAX_VALUE;
        for (final AppliedClock clock : clocks) {
            for (final long offset : clock.getOffsets()) {
                oldest = Math.min(oldest, offset);
            }
        }
        return oldest;
    }

    /** The log as stored with a shard's progress. */
    List<AppliedClock> toAvro() {
        return new ArrayList<>(clocks);
    }
}
