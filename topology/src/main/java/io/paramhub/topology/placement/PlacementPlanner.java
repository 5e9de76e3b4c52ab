package io.paramhub.topology.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The placement maths, without Kafka: which aggregator instance should own which shard partition so that a
 * round's server time is shortest, given each instance's measured time per shard-round and each partition's
 * measured cost.
 *
 * <p>Model: an instance works through its shards one after the other (one stream thread). A partition (a Streams
 * task) costs {@code w_p} typical shard-rounds a round ({@code PlacementProcessor} measures it: its shards, each
 * weighed by its own measured round time against its instance's typical one and by how many rounds its job runs
 * against the busiest job), and instance i takes {@code m_i} ms per typical shard-round, so a round costs
 * instance i {@code W_i × m_i} ({@code W_i}: the cost of the partitions it holds) and the round's server time is
 * the largest of these. The planner searches the placements exhaustively (branch and bound, heaviest partition
 * first; small clusters have a few partitions) for the shortest predicted round and, among those within
 * {@value #EQUAL_WITHIN} of it, the one that moves fewest partitions from their {@code current} owner (each
 * move restores a shard's state on its new owner). Past {@value #SEARCH_NODES} search steps it keeps the best
 * found, which starts from the LPT rule (heaviest first to the instance that would finish first).
 */
public final class PlacementPlanner {

    /** Predicted rounds within this fraction of the shortest count as equally short. */
    public static final double EQUAL_WITHIN = 0.02;
    /** Search steps before the planner settles for the best placement found. */
    static final long SEARCH_NODES = 200_000;

    private PlacementPlanner() {}

    /** A placement and what it is predicted to do. */
    public record Plan(
            SortedMap<Integer, String> owners,
            double currentRoundMs,
            double predictedRoundMs,
            SortedSet<String> slow,
            int moves) {

        /** Predicted shortening of the round's server time, as a fraction of the current one. */
        public double gain() {
            return currentRoundMs > 0 ? 1 - predictedRoundMs / currentRoundMs : 0;
        }
    }

    /**
     * The round's server time under {@code owners}: the largest over instances of the cost of the partitions
     * held × ms per shard-round ({@code weights}: cost of each partition in shard-rounds, 1 if not given). An
     * owner without a measure counts as the median instance.
     */
    public static double roundMs(
            final Map<Integer, String> owners,
            final Map<Integer, Double> weights,
            final Map<String, Double> msPerShardRound) {
        final Map<String, Double> held = new HashMap<>();
        owners.forEach(
                (partition, instance) -> held.merge(instance, weights.getOrDefault(partition, 1.0), Double::sum));
        final double median = median(msPerShardRound.values());
        double worst = 0;
        for (final Map.Entry<String, Double> entry : held.entrySet()) {
            final double ms = msPerShardRound.getOrDefault(entry.getKey(), median);
            worst = Math.max(worst, entry.getValue() * ms);
        }
        return worst;
    }

    /**
     * Instances slower than the median by more than {@code threshold} (0.2: a shard-round takes more than 1.2
     * times the median's), like worker stragglers.
     */
    public static SortedSet<String> slow(final Map<String, Double> msPerShardRound, final double threshold) {
        final double median = median(msPerShardRound.values());
        final SortedSet<String> slow = new TreeSet<>();
        msPerShardRound.forEach((instance, ms) -> {
            if (ms > median * (1 + threshold)) {
                slow.add(instance);
            }
        });
        return slow;
    }

    /**
     * The placement of the partitions of {@code weights} (cost of each in shard-rounds) on the instances of
     * {@code msPerShardRound} with the shortest predicted round, moving as few partitions from their
     * {@code current} owner as that allows.
     */
    public static Plan place(
            final SortedMap<Integer, Double> weights,
            final Map<String, Double> msPerShardRound,
            final Map<Integer, String> current,
            final double slowThreshold) {
        if (msPerShardRound.isEmpty()) {
            throw new IllegalArgumentException("no instance to place partitions on");
        }
        final SortedMap<Integer, String> owners = new PlacementSearch(weights, msPerShardRound, current).best();
        final Map<Integer, String> measured = new TreeMap<>();
        int moves = 0;
        for (final int partition : weights.keySet()) {
            final String owner = current.getOrDefault(partition, owners.get(partition));
            measured.put(partition, owner);
            if (!owner.equals(owners.get(partition))) {
                moves++;
            }
        }
        return new Plan(
                owners,
                roundMs(measured, weights, msPerShardRound),
                roundMs(owners, weights, msPerShardRound),
                slow(msPerShardRound, slowThreshold),
                moves);
    }

    /** As {@link #place(SortedMap, Map, Map, double)} with one shard-round on each partition. */
    public static Plan place(
            final SortedSet<Integer> partitions,
            final Map<String, Double> msPerShardRound,
            final Map<Integer, String> current,
            final double slowThreshold) {
        final SortedMap<Integer, Double> weights = new TreeMap<>();
        partitions.forEach(partition -> weights.put(partition, 1.0));
        return place(weights, msPerShardRound, current, slowThreshold);
    }

    /**
     * How many partitions each instance should hold: each partition in turn to the instance whose finish
     * time would be least (ties: the faster, then by name), which minimises the largest finish time.
     */
    static SortedMap<String, Integer> counts(final int partitions, final Map<String, Double> msPerShardRound) {
        final SortedMap<String, Integer> counts = new TreeMap<>();
        msPerShardRound.keySet().forEach(instance -> counts.put(instance, 0));
        for (int placed = 0; placed < partitions; placed++) {
            String best = null;
            double bestFinish = Double.POSITIVE_INFINITY;
            for (final Map.Entry<String, Integer> entry : counts.entrySet()) {
                final double ms = msPerShardRound.get(entry.getKey());
                final double finish = (entry.getValue() + 1) * ms;
                if (finish < bestFinish || finish == bestFinish && best != null && ms < msPerShardRound.get(best)) {
                    best = entry.getKey();
                    bestFinish = finish;
                }
            }
            counts.merge(best, 1, Integer::sum);
        }
        return counts;
    }

    /**
     * The instance count to recommend: one more (an instance as fast as the median) when that shortens the
     * predicted round by at least {@code outGain}; one fewer (the slowest removed) when that lengthens it by
     * at most {@code inLoss}; else as many as now.
     */
    public static Scaling scaling(
            final int partitions,
            final Map<String, Double> msPerShardRound,
            final double outGain,
            final double inLoss) {
        final int now = msPerShardRound.size();
        final double predicted = optimalRoundMs(partitions, msPerShardRound);
        if (predicted <= 0) {
            return new Scaling(now, 0);
        }
        final Map<String, Double> more = new HashMap<>(msPerShardRound);
        more.put("\u0000added", median(msPerShardRound.values()));
        final double withMore = optimalRoundMs(partitions, more);
        if (partitions > now && 1 - withMore / predicted >= outGain) {
            return new Scaling(now + 1, 1 - withMore / predicted);
        }
        if (now > 1) {
            final Map<String, Double> fewer = new HashMap<>(msPerShardRound);
            final String slowest = fewer.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .map(Map.Entry::getKey)
                    .orElseThrow();
            fewer.remove(slowest);
            final double withFewer = optimalRoundMs(partitions, fewer);
            if (withFewer / predicted - 1 <= inLoss) {
                return new Scaling(now - 1, 1 - withFewer / predicted);
            }
        }
        return new Scaling(now, 0);
    }

    /** A recommended instance count and the predicted gain of going there (negative: a loss accepted). */
    public record Scaling(int instances, double gain) {}

    static double optimalRoundMs(final int partitions, final Map<String, Double> msPerShardRound) {
        double worst = 0;
        for (final Map.Entry<String, Integer> entry :
                counts(partitions, msPerShardRound).entrySet()) {
            worst = Math.max(worst, entry.getValue() * msPerShardRound.get(entry.getKey()));
        }
        return worst;
    }

    public static double median(final Collection<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        final List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        final int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
