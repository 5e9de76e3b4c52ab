package io.paramhub.topology.orchestrator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * Computes a job's {@link LoadPlan}, the orchestrator's reallocation decision, as a pure function of the
 * workers' measured costs, threads and current shares.
 *
 * <p>A worker's compute time a clock is a fixed part plus a part that grows with its samples ({@link CostFit}):
 * {@code fixed + samples / speed}. Workers are judged by their <em>clock speed</em>, the samples a second they
 * would reach at an equal share of the global batch, so that a worker is not judged faster for having been given
 * more samples; with no fixed part that is its speed.
 *
 * <p><b>Resources</b> (if on): each straggler (clock speed more than the threshold below the median), slowest
 * first, gets threads until its predicted clock speed reaches the median, at most {@code maxThreadsPerWorker}:
 * first from the free budget ({@code threadBudget} minus the threads in use), then one at a time from the worker
 * with the highest predicted clock speed that stays at or above the median after giving one up (and keeps at
 * least one thread). Speed is assumed to scale linearly with threads (speed per thread = speed / threads); the
 * fixed part is assumed not to.
 *
 * <p><b>Load</b> (if on): batch shares, each at least {@code minShare} and summing to 1, such that every worker
 * needs the same time for its share, fixed part included: proportional to the speeds when no worker has a fixed
 * part.
 *
 * <p>The predicted iteration time is the max over workers of {@code fixed + share × batch / speed};
 * {@link LoadPlan#gain()} compares the plan's with the current allocation's.
 */
public final class Planner {

    private Planner() {}

    public static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /** As {@link #plan(SortedMap, Map, SortedMap, SortedMap, int, OrchestratorSettings)} with no fixed parts. */
    public static LoadPlan plan(
            final SortedMap<String, Double> speeds,
            final SortedMap<String, Integer> threads,
            final SortedMap<String, Double> shares,
            final OrchestratorSettings settings) {
        return plan(speeds, Map.of(), threads, shares, 0, settings);
    }

    /**
     * @param speeds       samples a second of the part of every worker's compute time that grows with its samples,
     *                     all positive
     * @param fixedSeconds the fixed part of each worker's compute time a clock, in seconds (absent: 0)
     * @param threads      threads each worker measured its speed with
     * @param shares       batch shares in effect
     * @param batch        the job's global batch; 0 if unknown, which leaves the fixed parts out
     */
    public static LoadPlan plan(
            final SortedMap<String, Double> speeds,
            final Map<String, Double> fixedSeconds,
            final SortedMap<String, Integer> threads,
            final SortedMap<String, Double> shares,
            final int batch,
            final OrchestratorSettings settings) {
        final SortedMap<String, Double> fixed = new TreeMap<>();
        speeds.keySet().forEach(worker -> fixed.put(worker, batch > 0 ? fixedSeconds.getOrDefault(worker, 0.0) : 0.0));
        final double equalShare = batch > 0 ? (double) batch / speeds.size() : 1;
        final SortedMap<String, Double> clockSpeeds = clockSpeeds(speeds, fixed, equalShare);
        final double median = median(
                clockSpeeds.values().stream().mapToDouble(Double::doubleValue).toArray());
        final double cutoff = (1.0 - settings.stragglerThreshold()) * median;
        final List<String> stragglers = new ArrayList<>();
        clockSpeeds.forEach((worker, speed) -> {
            if (speed < cutoff) {
                stragglers.add(worker);
            }
        });
        stragglers.sort(Comparator.comparing(clockSpeeds::get));

        final SortedMap<String, Integer> planned = new TreeMap<>(threads);
        final Map<String, Integer> added = new LinkedHashMap<>();
        if (settings.resourceLever()) {
            moveThreads(clockSpeeds, threads, planned, added, stragglers, median, settings);
        }
        final SortedMap<String, Double> predicted = new TreeMap<>();
        speeds.forEach((worker, speed) -> predicted.put(worker, speed / threads.get(worker) * planned.get(worker)));

        final double work = batch > 0 ? batch : 1;
        final SortedMap<String, Double> plannedShares =
                settings.loadLever() ? equalTime(predicted, fixed, work, settings.minShare()) : new TreeMap<>(shares);
        return new LoadPlan(
                clockSpeeds,
                median,
                List.copyOf(stragglers),
                plannedShares,
                planned,
                clockSpeeds(predicted, fixed, equalShare),
                added,
                time(shares, speeds, fixed, work),
                time(plannedShares, predicted, fixed, work));
    }

    /**
     * Samples a second of each worker's whole clock at {@code samples} samples, {@code samples / (fixed + samples /
     * speed)}: its speed itself where it has no fixed part.
     */
    private static SortedMap<String, Double> clockSpeeds(
            final SortedMap<String, Double> speeds, final Map<String, Double> fixed, final double samples) {
        final SortedMap<String, Double> clock = new TreeMap<>();
        speeds.forEach((worker, speed) -> {
            final double fixedPart = fixed.get(worker);
            clock.put(worker, fixedPart > 0 ? samples / (fixedPart + samples / speed) : speed);
        });
        return clock;
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

    /**
     * Shares of a batch of {@code batch} samples, each at least {@code floor} and summing to 1, with which every
     * worker not held at the floor needs the same time {@code T = fixed + share × batch / speed}: {@code share =
     * speed × (T − fixed) / batch}, where {@code T} makes the shares sum to what the floor leaves. With no fixed part
     * anywhere these are the shares proportional to the speeds, computed as before fixed parts were known.
     */
    static SortedMap<String, Double> equalTime(
            final SortedMap<String, Double> speeds,
            final Map<String, Double> fixed,
            final double batch,
            final double floor) {
        if (speeds.keySet().stream().allMatch(worker -> fixed.get(worker) == 0)) {
            return atLeast(floor, speeds, (free, left) -> {
                final double total =
                        free.values().stream().mapToDouble(Double::doubleValue).sum();
                return (worker, speed) -> speed / total * left;
            });
        }
        return atLeast(floor, speeds, (free, left) -> {
            final double time = commonTime(free, fixed, left * batch);
            return (worker, speed) -> speed * (time - fixed.get(worker)) / batch;
        });
    }

    /** How the free workers of one pass divide what the floor leaves them, worker by worker. */
    private interface Division {
        double share(String worker, double speed);
    }

    /**
     * The shares {@code divide} gives (from the free workers and the share left to them), each at least {@code floor}:
     * every worker one pass gives less is held at the floor, and the others divide what is left again. A pass judges
     * all its workers by one division, so the result does not depend on the order of their names.
     */
    private static SortedMap<String, Double> atLeast(
            final double floor,
            final SortedMap<String, Double> speeds,
            final BiFunction<SortedMap<String, Double>, Double, Division> divide) {
        final SortedMap<String, Double> shares = new TreeMap<>();
        final SortedMap<String, Double> free = new TreeMap<>(speeds);
        double left = 1.0;
        boolean clamped = true;
        while (clamped && !free.isEmpty()) {
            clamped = false;
            final Division division = divide.apply(free, left);
            for (final var entry : List.copyOf(free.entrySet())) {
                if (division.share(entry.getKey(), entry.getValue()) < floor) {
                    shares.put(entry.getKey(), floor);
                    free.remove(entry.getKey());
                    left -= floor;
                    clamped = true;
                }
            }
        }
        final Division division = divide.apply(free, left);
        free.forEach((worker, speed) -> shares.put(worker, division.share(worker, speed)));
        return shares;
    }

    /** The time in which {@code speeds}' workers, each with its fixed part, compute {@code samples} together. */
    private static double commonTime(
            final Map<String, Double> speeds, final Map<String, Double> fixed, final double samples) {
        double speed = 0;
        double fixedWork = 0;
        for (final var entry : speeds.entrySet()) {
            speed += entry.getValue();
            fixedWork += entry.getValue() * fixed.get(entry.getKey());
        }
        return (samples + fixedWork) / speed;
    }

    /** The iteration time: the slowest worker's {@code fixed + share × batch / speed}. */
    private static double time(
            final Map<String, Double> shares,
            final Map<String, Double> speeds,
            final Map<String, Double> fixed,
            final double batch) {
        double max = 0;
        for (final var entry : speeds.entrySet()) {
            max = Math.max(
                    max,
                    fixed.get(entry.getKey()) + shares.getOrDefault(entry.getKey(), 0.0) * batch / entry.getValue());
        }
        return max;
    }
}
