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
 * round's server time is shortest, given each instance's measured time per shard-round.
 *
 * <p>Model: an instance works through its shards one after the other (one stream thread), the shards of a
 * job are equal in size ({@code ShardLayout}), and a partition (a Streams task) holds {@code w_p} shards (the
 * shards of each job are spread over the partitions by their key's hash), so a round costs instance i
 * {@code W_i × m_i} ({@code W_i} shards held, {@code m_i} ms per shard-round) and the round's server time is the
 * largest of these. Partitions are placed heaviest first, each on the instance whose finish time
 * {@code (W_i + w_p) × m_i} would be least (the LPT rule for machines of different speeds; optimal when every
 * partition holds one shard); then, among partitions of equal weight, each keeps its current owner wherever the
 * instance's share allows, so that as few as possible move (each move restores a shard's state on its new
 * owner).
 */
public final class PlacementPlanner {

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
     * The round's server time under {@code owners}: the largest over instances of shards held × ms per
     * shard-round ({@code weights}: shards on each partition, 1 if not given). An owner without a measure counts
     * as the median instance.
     */
    public static double roundMs(
            final Map<Integer, String> owners,
            final Map<Integer, Integer> weights,
            final Map<String, Double> msPerShardRound) {
        final Map<String, Integer> held = new HashMap<>();
        owners.forEach((partition, instance) -> held.merge(instance, weights.getOrDefault(partition, 1), Integer::sum));
        final double median = median(msPerShardRound.values());
        double worst = 0;
        for (final Map.Entry<String, Integer> entry : held.entrySet()) {
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
     * The placement of the partitions of {@code weights} (shards each holds) on the instances of
     * {@code msPerShardRound} with the shortest predicted round, keeping partitions with their {@code current}
     * owner where the shares allow.
     */
    public static Plan place(
            final SortedMap<Integer, Integer> weights,
            final Map<String, Double> msPerShardRound,
            final Map<Integer, String> current,
            final double slowThreshold) {
        if (msPerShardRound.isEmpty()) {
            throw new IllegalArgumentException("no instance to place partitions on");
        }
        // how many partitions of each weight each instance gets
        final Map<Integer, Map<String, Integer>> quota = new TreeMap<>();
        final Map<String, Double> load = new TreeMap<>();
        msPerShardRound.keySet().forEach(instance -> load.put(instance, 0.0));
        final List<Integer> heaviestFirst = new ArrayList<>(weights.keySet());
        heaviestFirst.sort((x, y) -> weights.get(y).equals(weights.get(x))
                ? Integer.compare(x, y)
                : Integer.compare(weights.get(y), weights.get(x)));
        for (final int partition : heaviestFirst) {
            final int weight = weights.get(partition);
            String best = null;
            double bestFinish = Double.POSITIVE_INFINITY;
            for (final Map.Entry<String, Double> entry : load.entrySet()) {
                final double ms = msPerShardRound.get(entry.getKey());
                final double finish = (entry.getValue() + weight) * ms;
                if (finish < bestFinish - 1e-9
                        || Math.abs(finish - bestFinish) <= 1e-9 && best != null && ms < msPerShardRound.get(best)) {
                    best = entry.getKey();
                    bestFinish = finish;
                }
            }
            load.merge(best, (double) weight, Double::sum);
            quota.computeIfAbsent(weight, w -> new TreeMap<>()).merge(best, 1, Integer::sum);
        }
        final SortedMap<Integer, String> owners = new TreeMap<>();
        final List<Integer> homeless = new ArrayList<>();
        for (final Map.Entry<Integer, Integer> entry : weights.entrySet()) {
            final Map<String, Integer> left = quota.get(entry.getValue());
            final String owner = current.get(entry.getKey());
            if (owner != null && left.getOrDefault(owner, 0) > 0) {
                owners.put(entry.getKey(), owner);
                left.merge(owner, -1, Integer::sum);
            } else {
                homeless.add(entry.getKey());
            }
        }
        for (final int partition : homeless) {
            final Map<String, Integer> left = quota.get(weights.get(partition));
            final String owner = left.entrySet().stream()
                    .filter(entry -> entry.getValue() > 0)
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow();
            owners.put(partition, owner);
            left.merge(owner, -1, Integer::sum);
        }
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

    /** As {@link #place(SortedMap, Map, Map, double)} with one shard on each partition. */
    public static Plan place(
            final SortedSet<Integer> partitions,
            final Map<String, Double> msPerShardRound,
            final Map<Integer, String> current,
            final double slowThreshold) {
        final SortedMap<Integer, Integer> weights = new TreeMap<>();
        partitions.forEach(partition -> weights.put(partition, 1));
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
