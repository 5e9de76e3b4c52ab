package io.paramhub.topology.aggregator;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.OffsetRange;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The gradients one shard holds, decoded, until their BSP clock can be applied: in memory only. They
 * are not written to a changelog; a task that starts on stored state reads them again from
 * {@code gradients} (see {@link GradientRestore}), from the offset of the oldest one, which the
 * shard's state records ({@link #oldestOffset()}).
 */
final class PendingGradients {

    /**
     * One record's gradient for one clock: its summed values, its sample count, where it lies in {@code gradients},
     * the data-topic ranges of its examples (topic mode, shard 0; else empty), and the workers whose gradients it
     * holds (its own worker, or a host's sum's contributors).
     */
    record Pending(GradientValues values, int samples, long offset, List<OffsetRange> examples, List<String> workers) {

        /** {@code gradient}, read at {@code offset}, with its checked {@code values}. */
        static Pending of(final GradientShard gradient, final GradientValues values, final long offset) {
            return new Pending(
                    values,
                    gradient.getSampleCount(),
                    offset,
                    gradient.getExamples(),
                    GradientChecks.workersOf(gradient));
        }
    }

    private final NavigableMap<Long, NavigableMap<String, Pending>> byClock = new TreeMap<>();

    /** Whether a held gradient of {@code clock} holds {@code worker}'s, on its own or in a host's sum. */
    boolean contains(final long clock, final String worker) {
        final NavigableMap<String, Pending> clockGradients = byClock.get(clock);
        return clockGradients != null
                && clockGradients.values().stream()
                        .anyMatch(held -> held.workers().contains(worker));
    }

    /** Holds {@code gradient} of {@code clock}, sent by {@code worker}. */
    void add(final long clock, final String worker, final Pending gradient) {
        byClock.computeIfAbsent(clock, ignored -> new TreeMap<>()).put(worker, gradient);
    }

    /** The workers whose gradients of {@code clock} are held, on their own or in a host's sum. */
    Set<String> workersOf(final long clock) {
        final Set<String> workers = new TreeSet<>();
        ofClock(clock).values().forEach(held -> workers.addAll(held.workers()));
        return workers;
    }

    /** The gradients of one clock by the id of the worker that sent each, in ascending order (empty when none). */
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
