package io.paramhub.worker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Gathers, clock by clock, the gradients of one job's workers that run in this process, for protocol 2's host
 * sum: each worker hands in its float32 gradient ({@link #add}); the call that completes a clock gets every part
 * of it, in the order of the workers' indexes, and its worker sends them as one record a shard
 * ({@link GradientPublisher}), so that the broker and the aggregator carry one gradient a clock where each worker
 * sent its own. Reads and writes no topic.
 *
 * <p>A clock is complete when every member has handed in its part: the workers this process declared it runs
 * ({@link WorkerClients#sumOnHost}), but not one that has left, nor one that joined after that clock. A member
 * that leaves (its job over, stopped, or failed) is waited for no more, so a clock it never reached completes
 * without it; one that has left does not join again, and a restarted worker sends its own gradients.
 */
final class HostSum {

    /**
     * One worker's part of a clock: its float32 gradient (its own copy), samples, loss, the versions it was computed
     * on, and the publisher that can send it.
     */
    record Part(
            long clock,
            int worker,
            String workerId,
            float[] gradient,
            int samples,
            double loss,
            long[] baseVersions,
            GradientPublisher publisher) {}

    private final Set<Integer> members;
    private final Map<Integer, Long> joinedAt = new HashMap<>();
    private final Set<Integer> left = new TreeSet<>();
    private final NavigableMap<Long, NavigableMap<Integer, Part>> clocks = new TreeMap<>();

    /** A sum over the workers of indexes {@code members}, all of which this process runs. */
    HostSum(final Collection<Integer> members) {
        this.members = new TreeSet<>(members);
    }

    /**
     * Worker {@code worker} trains from {@code startClock} on and hands in its part of each clock; false when it
     * cannot take part (not a member, or it left before) and sends its own gradients.
     */
    synchronized boolean join(final int worker, final long startClock) {
        if (!members.contains(worker) || left.contains(worker) || joinedAt.containsKey(worker)) {
            return false;
        }
        joinedAt.put(worker, startClock);
        return true;
    }

    /** Hands in {@code part}; returns its clock's parts if this completed the clock, else an empty list. */
    synchronized List<Part> add(final Part part) {
        clocks.computeIfAbsent(part.clock(), ignored -> new TreeMap<>()).put(part.worker(), part);
        return complete(part.clock()) ? take(part.clock()) : List.of();
    }

    /**
     * Worker {@code worker} takes part no more; returns the parts of each clock its leaving completed, oldest
     * first (their first worker sends them).
     */
    synchronized List<List<Part>> leave(final int worker) {
        left.add(worker);
        final List<List<Part>> completed = new ArrayList<>();
        for (final long clock : List.copyOf(clocks.keySet())) {
            if (complete(clock)) {
                completed.add(take(clock));
            }
        }
        return completed;
    }

    private boolean complete(final long clock) {
        final Map<Integer, Part> parts = clocks.get(clock);
        for (final int member : members) {
            final Long from = joinedAt.get(member);
            final boolean expected = !left.contains(member) && (from == null || from <= clock);
            if (expected && !parts.containsKey(member)) {
                return false;
            }
        }
        return !parts.isEmpty();
    }

    private List<Part> take(final long clock) {
        return List.copyOf(clocks.remove(clock).values());
    }
}
