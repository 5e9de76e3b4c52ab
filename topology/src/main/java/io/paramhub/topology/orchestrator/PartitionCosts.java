package io.paramhub.topology.orchestrator;

import io.paramhub.avro.ServerTelemetry;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.placement.PlacementPlanner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What each shard partition costs a round, measured from {@code server-telemetry}: per shard (job/shard) the
 * partition it lives on, its last shard-round times and when they ended. A partition's cost, in typical
 * shard-rounds, is the sum over its shards of the shard's median round time ÷ its instance's median (a shard
 * twice the size of its neighbours weighs about 2), × its job's rounds per second ÷ the busiest job's (a job
 * that rounds half as often weighs half). One job of equal shards: a partition weighs the number of its shards.
 */
final class PartitionCosts {

    private final int window;
    private final Map<String, Shard> shards = new HashMap<>();

    PartitionCosts(final int window) {
        this.window = window;
    }

    /** A shard-round that ended at {@code atMs}. */
    void add(final ServerTelemetry telemetry, final long atMs) {
        shards.computeIfAbsent(ShardKeys.shard(telemetry.getJob(), telemetry.getShard()), key -> new Shard())
                .add(telemetry, atMs, window);
    }

    /** Forgets shards silent since before {@code sinceMs}. */
    void forgetBefore(final long sinceMs) {
        shards.values().removeIf(shard -> shard.lastMs() < sinceMs);
    }

    /** The partitions reported on, with the instance that reported each last. */
    SortedMap<Integer, String> owners() {
        final SortedMap<Integer, String> owners = new TreeMap<>();
        final Map<Integer, Long> at = new HashMap<>();
        shards.values().forEach(shard -> {
            if (shard.lastMs() >= at.getOrDefault(shard.partition, Long.MIN_VALUE)) {
                at.put(shard.partition, shard.lastMs());
                owners.put(shard.partition, shard.instance);
            }
        });
        return owners;
    }

    /** Shards reported on, over all partitions. */
    int shardCount() {
        return shards.size();
    }

    /**
     * Each partition's cost in typical shard-rounds, given each instance's median ms per shard-round
     * ({@code msPerShardRound}; a shard on an instance not in it weighs by its rate alone).
     */
    SortedMap<Integer, Double> weights(final Map<String, Double> msPerShardRound) {
        final Map<String, List<Double>> rates = new HashMap<>();
        shards.values().forEach(shard -> {
            final double rate = shard.roundsPerSecond();
            if (rate > 0) {
                rates.computeIfAbsent(shard.job, job -> new ArrayList<>()).add(rate);
            }
        });
        final Map<String, Double> jobRate = new HashMap<>();
        rates.forEach((job, values) -> jobRate.put(job, PlacementPlanner.median(values)));
        final double busiest =
                jobRate.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        final SortedMap<Integer, Double> weights = new TreeMap<>();
        shards.values().forEach(shard -> {
            final Double typical = msPerShardRound.get(shard.instance);
            final double size = typical != null && typical > 0 ? shard.medianMs() / typical : 1;
            final double pace = busiest > 0 ? jobRate.getOrDefault(shard.job, busiest) / busiest : 1;
            weights.merge(shard.partition, size * pace, Double::sum);
        });
        return weights;
    }

    /** One shard's recent rounds. */
    private static final class Shard {
        private String job;
        private int partition;
        private String instance;
        private final Deque<Double> roundMs = new ArrayDeque<>();
        private final Deque<Long> endedAt = new ArrayDeque<>();

        void add(final ServerTelemetry telemetry, final long atMs, final int window) {
            if (instance != null && !instance.equals(telemetry.getInstance())) {
                // moved: its rounds elsewhere say nothing of its cost here
                roundMs.clear();
                endedAt.clear();
            }
            job = telemetry.getJob();
            partition = telemetry.getPartition();
            instance = telemetry.getInstance();
            roundMs.addLast(telemetry.getRoundMs());
            endedAt.addLast(atMs);
            while (roundMs.size() > window) {
                roundMs.removeFirst();
                endedAt.removeFirst();
            }
        }

        long lastMs() {
            return endedAt.isEmpty() ? Long.MIN_VALUE : endedAt.getLast();
        }

        double medianMs() {
            return PlacementPlanner.median(roundMs);
        }

        double roundsPerSecond() {
            final long span = endedAt.getLast() - endedAt.getFirst();
            return endedAt.size() < 2 || span <= 0 ? 0 : (endedAt.size() - 1) * 1000.0 / span;
        }
    }
}
