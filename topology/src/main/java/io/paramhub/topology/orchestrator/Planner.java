package io.paramhub.topology.orchestrator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Computes a job's {@link LoadPlan}, the orchestrator's reallocation decision, as a pure function of the
 * workers' measured speeds, threads and current shares.
 *
 * <p><b>Resources</b> (if on): each straggler, slowest first, gets threads until its predicted speed
 * reaches the median, at most {@code maxThreadsPerWorker}: first from the free budget
 * ({@code threadBudget} minus the threads in use), then one at a time from the worker with the highest
 * predicted speed that stays at or above the median after giving one up (and keeps at least one
 * thread). Speed is assumed to scale linearly with threads (speed per thread = speed / threads).
 *
 * <p><b>Load</b> (if on): batch shares proportional to the predicted speeds, each at least
 * {@code minShare}, summing to 1, so that every worker needs the same time for its share.
 *
 * <p>The predicted iteration time is the max over workers of share / speed (seconds per sample of the
 * global batch); {@link LoadPlan#gain()} compares the plan's with the current allocation's.
 */
public final class Planner {

    private Planner() {}

    public static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /**
     * @param speeds  samples per compute-second of every worker, all positive
     * @param threads threads each worker measured its speed with
     * @param shares  batch shares in effect
     */
    public static LoadPlan plan(
            final SortedMap<String, Double> speeds,
            final SortedMap<String, Integer> threads,
            final SortedMap<String, Double> shares,
            final OrchestratorSettings settings) {
        final double median =
                median(speeds.values().stream().mapToDouble(Double::doubleValue).toArray());
        final double cutoff = (1.0 - settings.stragglerThreshold()) * median;
        final List<String> stragglers = new ArrayList<>();
        speeds.forEach((worker, speed) -> {
            if (speed < cutoff) {
                stragglers.add(worker);
            }
        });
        stragglers.sort(Comparator.comparing(speeds::get));

        final SortedMap<String, Integer> planned = new TreeMap<>(threads);
        final Map<String, Integer> added = new LinkedHashMap<>();
        if (settings.resourceLever()) {
            moveThreads(speeds, threads, planned, added, stragglers, median, settings);
        }
        final SortedMap<String, Double> predicted = new TreeMap<>();
        speeds.forEach((worker, speed) -> predicted.put(worker, speed / threads.get(worker) * planned.get(worker)));

        final SortedMap<String, Double> plannedShares =
                settings.loadLever() ? proportional(predicted, settings.minShare()) : new TreeMap<>(shares);
        return new LoadPlan(
                new TreeMap<>(speeds),
                median,
                List.copyOf(stragglers),
                plannedShares,
                planned,
                predicted,
                added,
                time(shares, speeds),
                time(plannedShares, predicted));
    }

    private static void moveThreads(
            final SortedMap<String, Double> speeds,
            final SortedMap<String, Integer> threads,
            final SortedMap<String, Integer> planned,
            final Map<String, Integer> added,
            final List<String> stragglers,
            final double median,
            final OrchestratorSettings settings) {
        int inUse = 0;
        for (final int t : threads.values()) {
            inUse += t;
        }
        int free = Math.max(0, settings.threadBudget() - inUse);
        for (final String slow : stragglers) {
            final double perThread = speeds.get(slow) / threads.get(slow);
            final int needed = Math.min(settings.maxThreadsPerWorker(), (int) Math.ceil(median / perThread));
            while (planned.get(slow) < needed) {
                if (free > 0) {
                    free--;
                } else {
                    final String donor = donor(speeds, threads, planned, stragglers, median);
                    if (donor == null) {
                        break;
                    }
                    planned.merge(donor, -1, Integer::sum);
                    added.merge(donor, -1, Integer::sum);
                }
                planned.merge(slow, 1, Integer::sum);
                added.merge(slow, 1, Integer::sum);
            }
        }
    }

    /** The fastest non-straggler that stays at or above the median with one thread less, or null. */
    private static String donor(
            final SortedMap<String, Double> speeds,
            final SortedMap<String, Integer> threads,
            final SortedMap<String, Integer> planned,
            final List<String> stragglers,
            final double median) {
        String best = null;
        double bestSpeed = 0;
        for (final String worker : speeds.keySet()) {
            final int t = planned.get(worker);
            if (stragglers.contains(worker) || t <= 1) {
                continue;
            }
            final double perThread = speeds.get(worker) / threads.get(worker);
            if (perThread * (t - 1) >= median && perThread * t > bestSpeed) {
                best = worker;
                bestSpeed = perThread * t;
            }
        }
        return best;
    }

    /** Shares proportional to {@code speeds}, each at least {@code floor}, summing to 1. */
    static SortedMap<String, Double> proportional(final SortedMap<String, Double> speeds, final double floor) {
        final SortedMap<String, Double> shares = new TreeMap<>();
        final SortedMap<String, Double> free = new TreeMap<>(speeds);
        double left = 1.0;
        boolean clamped = true;
        while (clamped && !free.isEmpty()) {
            clamped = false;
            final double total =
                    free.values().stream().mapToDouble(Double::doubleValue).sum();
            for (final var entry : List.copyOf(free.entrySet())) {
                if (entry.getValue() / total * left < floor) {
                    shares.put(entry.getKey(), floor);
                    free.remove(entry.getKey());
                    left -= floor;
                    clamped = true;
                }
            }
        }
        final double total =
                free.values().stream().mapToDouble(Double::doubleValue).sum();
        final double rest = left;
        free.forEach((worker, speed) -> shares.put(worker, speed / total * rest));
        return shares;
    }

    private static double time(final Map<String, Double> shares, final Map<String, Double> speeds) {
        double max = 0;
        for (final var entry : speeds.entrySet()) {
            max = Math.max(max, shares.getOrDefault(entry.getKey(), 0.0) / entry.getValue());
        }
        return max;
    }
}
