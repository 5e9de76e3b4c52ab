package io.paramhub.topology.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The search behind {@link PlacementPlanner#place}: branch and bound over the owners of the partitions, heaviest
 * first. A first pass finds the shortest predicted round (starting from the LPT placement's), a second the
 * placement within {@link PlacementPlanner#EQUAL_WITHIN} of it that moves fewest partitions from their current
 * owner. Each pass stops after {@link PlacementPlanner#SEARCH_NODES} steps with the best placement found.
 */
final class PlacementSearch {

    private static final double EPSILON = 1e-9;

    private final int[] partitions;
    private final double[] weights;
    private final String[] instances;
    private final double[] ms;
    /** Per partition (in search order), the index of its current owner; -1 if none. */
    private final int[] current;
    /** Per partition (in search order), the sum of the weights of those after it. */
    private final double[] rest;

    private final int[] choice;
    private final double[] load;
    private int[] best;
    private double bestRoundMs;
    private int bestMoves;
    private long steps;

    PlacementSearch(
            final SortedMap<Integer, Double> byPartition,
            final Map<String, Double> msPerShardRound,
            final Map<Integer, String> owners) {
        final List<Integer> order = new ArrayList<>(byPartition.keySet());
        order.sort((x, y) -> byPartition.get(y).equals(byPartition.get(x))
                ? Integer.compare(x, y)
                : Double.compare(byPartition.get(y), byPartition.get(x)));
        final TreeMap<String, Double> sorted = new TreeMap<>(msPerShardRound);
        this.instances = sorted.keySet().toArray(new String[0]);
        this.ms = sorted.values().stream().mapToDouble(Double::doubleValue).toArray();
        final int n = order.size();
        this.partitions = new int[n];
        this.weights = new double[n];
        this.current = new int[n];
        this.rest = new double[n + 1];
        final List<String> names = List.of(instances);
        for (int index = 0; index < n; index++) {
            partitions[index] = order.get(index);
            weights[index] = Math.max(0, byPartition.get(order.get(index)));
            current[index] = names.indexOf(owners.get(order.get(index)));
        }
        for (int index = n - 1; index >= 0; index--) {
            rest[index] = rest[index + 1] + weights[index];
        }
        this.choice = new int[n];
        this.load = new double[instances.length];
    }

    /** The shortest placement, moving as few partitions as placements within the tolerance allow. */
    SortedMap<Integer, String> best() {
        best = lpt();
        bestRoundMs = roundMs(best);
        bestMoves = moves(best);
        steps = 0;
        shortest(0, 0);
        final double limit = bestRoundMs * (1 + PlacementPlanner.EQUAL_WITHIN) + EPSILON;
        steps = 0;
        fewestMoves(0, 0, 0, limit);
        final SortedMap<Integer, String> owners = new TreeMap<>();
        for (int index = 0; index < partitions.length; index++) {
            owners.put(partitions[index], instances[best[index]]);
        }
        return owners;
    }

    /** Pass 1: the shortest predicted round; ties: fewer moves. */
    private void shortest(final int index, final double worst) {
        if (++steps > PlacementPlanner.SEARCH_NODES) {
            return;
        }
        if (index == partitions.length) {
            final int moves = moves(choice);
            if (worst < bestRoundMs - EPSILON || worst <= bestRoundMs + EPSILON && moves < bestMoves) {
                best = choice.clone();
                bestRoundMs = worst;
                bestMoves = moves;
            }
            return;
        }
        if (lowerBound(index, worst) > bestRoundMs + EPSILON) {
            return;
        }
        for (final int instance : candidates(index)) {
            final double finish = load[instance] + weights[index] * ms[instance];
            if (finish > bestRoundMs + EPSILON) {
                continue;
            }
            place(index, instance, finish, worst);
        }
    }

    private void place(final int index, final int instance, final double finish, final double worst) {
        final double before = load[instance];
        load[instance] = finish;
        choice[index] = instance;
        shortest(index + 1, Math.max(worst, finish));
        load[instance] = before;
    }

    /** Pass 2: fewest moves among placements whose round is at most {@code limit}. */
    private void fewestMoves(final int index, final double worst, final int moves, final double limit) {
        if (++steps > PlacementPlanner.SEARCH_NODES || moves >= bestMoves) {
            return;
        }
        if (index == partitions.length) {
            best = choice.clone();
            bestMoves = moves;
            bestRoundMs = worst;
            return;
        }
        for (final int instance : candidates(index)) {
            final double finish = load[instance] + weights[index] * ms[instance];
            if (finish > limit) {
                continue;
            }
            final double before = load[instance];
            load[instance] = finish;
            choice[index] = instance;
            fewestMoves(index + 1, Math.max(worst, finish), moves + (instance == current[index] ? 0 : 1), limit);
            load[instance] = before;
        }
    }

    /** The current owner first, then the others by name. */
    private List<Integer> candidates(final int index) {
        final List<Integer> order = new ArrayList<>();
        if (current[index] >= 0) {
            order.add(current[index]);
        }
        for (int instance = 0; instance < instances.length; instance++) {
            if (instance != current[index]) {
                order.add(instance);
            }
        }
        return order;
    }

    /** No placement of the rest finishes before the remaining work spread perfectly over every instance. */
    private double lowerBound(final int index, final double worst) {
        double speed = 0;
        double busy = 0;
        for (int instance = 0; instance < instances.length; instance++) {
            speed += 1 / ms[instance];
            busy += load[instance] / ms[instance];
        }
        return Math.max(worst, (busy + rest[index]) / speed);
    }

    /** Heaviest first, each to the instance that would finish first (ties: the faster, then by name). */
    private int[] lpt() {
        final int[] placed = new int[partitions.length];
        final double[] finish = new double[instances.length];
        for (int index = 0; index < partitions.length; index++) {
            int bestInstance = 0;
            for (int instance = 1; instance < instances.length; instance++) {
                final double here = finish[instance] + weights[index] * ms[instance];
                final double there = finish[bestInstance] + weights[index] * ms[bestInstance];
                if (here < there - EPSILON || Math.abs(here - there) <= EPSILON && ms[instance] < ms[bestInstance]) {
                    bestInstance = instance;
                }
            }
            finish[bestInstance] += weights[index] * ms[bestInstance];
            placed[index] = bestInstance;
        }
        return placed;
    }

    private double roundMs(final int[] placed) {
        final double[] finish = new double[instances.length];
        double worst = 0;
        for (int index = 0; index < placed.length; index++) {
            finish[placed[index]] += weights[index] * ms[placed[index]];
            worst = Math.max(worst, finish[placed[index]]);
        }
        return worst;
    }

    private int moves(final int[] placed) {
        int moves = 0;
        for (int index = 0; index < placed.length; index++) {
            if (current[index] >= 0 && placed[index] != current[index]) {
                moves++;
            }
        }
        return moves;
    }
}
