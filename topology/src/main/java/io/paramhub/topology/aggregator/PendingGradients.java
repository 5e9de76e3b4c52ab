package io.paramhub.topology.aggregator;

import io.paramhub.avro.OffsetRange;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The gradients one shard holds, decoded, until their BSP clock can be applied: in memory only. They
 * are not written to a changelog; a task that starts on stored state reads them again from
 * {@code gradients} (see {@link GradientRestore}), from the offset of the oldest one, which the
 * shard's state records ({@link #oldestOffset()}).
 */
final class PendingGradients {

    /**
     * One worker's gradient for one clock: its summed values, its sample count, where it lies in {@code gradients},
     * and the data-topic ranges of its examples (topic mode, shard 0; else empty).
     */
    record Pending(float[] values, int samples, long offset, List<OffsetRange> examples) {}

    private final NavigableMap<Long, NavigableMap<String, Pending>> byClock = new TreeMap<>();

    boolean contains(final long clock, final String worker) {
        final NavigableMap<String, Pending> clockGradients = byClock.get(clock);
        return clockGradients != null && clockGradients.containsKey(worker);
    }

    void add(final long clock, final String worker, final Pending gradient) {
        byClock.computeIfAbsent(clock, ignored -> new TreeMap<>()).put(worker, gradient);
    }

    /** The gradients of one clock by worker id, in ascending order (empty when there are none). */
    NavigableMap<String, Pending> ofClock(final long clock) {
        final NavigableMap<String, Pending> clockGradients = byClock.get(clock);
        return clockGradients == null ? new TreeMap<>() : clockGradients;
    }

    void removeClock(final long clock) {
        byClock.remove(clock);
    }

    void clear() {
        byClock.clear();
    }

    boolean isEmpty() {
        return byClock.isEmpty();
    }

    /** The smallest {@code gradients} offset among the held gradients, or -1 when none is held. */
    long oldestOffset() {
        long oldest = Long.MAX_VALUE;
        for (final Map<String, Pending> clockGradients : byClock.values()) {
            for (final Pending gradient : clockGradients.values()) {
                oldest = Math.min(oldest, gradient.offset());
            }
        }
        return oldest == Long.MAX_VALUE ? -1 : oldest;
    }
}
