package io.paramhub.topology.aggregator;

import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ShardState;
import io.paramhub.topology.sync.SyncPolicy;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Where one shard's clocks stand: the next clock of each worker (the clocks it has had applied or counted as
 * processed), the next BSP clock, {@code minClock}, and when the shard took its first gradient. Mutable; owned
 * by one {@link HotShard}.
 */
final class ShardClocks {

    private final Map<String, Long> workerClocks;
    private long nextClock;
    private long minClock;
    private long startedAt;

    private ShardClocks(
            final Map<String, Long> workerClocks, final long nextClock, final long minClock, final long startedAt) {
        this.workerClocks = workerClocks;
        this.nextClock = nextClock;
        this.minClock = minClock;
        this.startedAt = startedAt;
    }

    /** A shard just started: every clock at 0, no gradient yet. */
    static ShardClocks initial() {
        return new ShardClocks(new HashMap<>(), 0, 0, 0);
    }

    /** The clocks as {@code state} stored them. */
    static ShardClocks of(final ShardState state) {
        return new ShardClocks(
                new HashMap<>(state.getWorkerClocks()),
                state.getNextClock(),
                state.getMinClock(),
                state.getStartedAt());
    }

    /** The next clock of {@code worker}: how many of its clocks are applied or counted as processed. */
    long of(final String worker) {
        return workerClocks.getOrDefault(worker, 0L);
    }

    long nextClock() {
        return nextClock;
    }

    long minClock() {
        return minClock;
    }

    long startedAt() {
        return startedAt;
    }

    /** Clock {@code clock} of {@code worker} is applied or counted as processed. */
    void processed(final String worker, final long clock) {
        workerClocks.put(worker, clock + 1);
    }

    /** A gradient came at {@code now}; says whether it is the shard's first. */
    boolean firstGradientAt(final long now) {
        if (startedAt != 0) {
            return false;
        }
        startedAt = now;
        return true;
    }

    /** BSP: clock {@code clock} is applied; the next one is open. */
    void barrierPassed(final long clock) {
        nextClock = clock + 1;
        minClock = clock + 1;
    }

    /** SSP and ASP: {@code minClock} moves to {@code clock}. */
    void minClock(final long clock) {
        minClock = clock;
    }

    /**
     * SSP and ASP: where {@code minClock} may move at {@code now}: to the {@code live} workers' smallest next clock
     * ({@link #liveMinClock}), but nowhere in the start grace ({@link SyncPolicy#inStartGrace}), when an expected
     * worker not yet heard from would join at the current one.
     */
    long nextMinClock(final Set<String> live, final long now, final SyncPolicy sync, final IntSupplier heardFrom) {
        return sync.inStartGrace(now, startedAt, heardFrom) ? minClock : liveMinClock(live);
    }

    /**
     * The smallest next clock among {@code live} workers (one not yet heard from at this shard counts at the
     * current {@code minClock}); never below {@code minClock}.
     */
    long liveMinClock(final Set<String> live) {
        long min = Long.MAX_VALUE;
        for (final String worker : live) {
            min = Math.min(min, workerClocks.getOrDefault(worker, minClock));
        }
        return min == Long.MAX_VALUE ? minClock : Math.max(minClock, min);
    }

    /** Writes the clocks into a shard's stored form. */
    ShardState.Builder storeIn(final ShardState.Builder state) {
        return state.setNextClock(nextClock)
                .setMinClock(minClock)
                .setWorkerClocks(new HashMap<>(workerClocks))
                .setStartedAt(startedAt);
    }

    /** Writes the clocks into a published version. */
    ModelShard.Builder publishIn(final ModelShard.Builder model) {
        return model.setMinClock(minClock).setClocks(new HashMap<>(workerClocks));
    }
}
