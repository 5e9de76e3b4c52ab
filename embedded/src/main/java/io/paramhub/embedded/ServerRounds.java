package io.paramhub.embedded;

import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ServerTelemetry;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What a run's aggregator instances did, read back from {@code server-telemetry} and {@code placements} after
 * the run: where each shard partition ran (from which model version on), how many times a partition moved,
 * the placements the orchestrator issued, the mean round time before the first move and after the last, and what
 * each move cost ({@link MoveCosts}).
 * A round's time is the wall time between the moments two consecutive model versions were complete on every
 * partition of the job (the first report of the version from each partition).
 *
 * @param placements    the placements naming only this run's instances, oldest first
 * @param owners        per partition, the instance that published each run of versions, from that version on
 * @param moves         owner changes over all partitions
 * @param firstMove     the first version published by a partition's new owner; -1 without a move
 * @param lastMove      the last such version; -1 without a move
 * @param roundMsBefore mean round time before the first move (all rounds without a move), {@code NaN} if none
 * @param roundMsAfter  mean round time from {@value #SETTLE_ROUNDS} rounds after the last move on, {@code NaN}
 *                      without a move or when too few rounds followed it
 * @param moveList      each move, with its handover and restore time ({@link MoveCosts})
 * @param stalls        per version at which partitions moved, the time and rounds the moves cost
 */
public record ServerRounds(
        List<ShardPlacement> placements,
        SortedMap<Integer, SortedMap<Long, String>> owners,
        int moves,
        long firstMove,
        long lastMove,
        double roundMsBefore,
        double roundMsAfter,
        List<MoveCosts.Move> moveList,
        List<MoveCosts.Stall> stalls) {

    /** The rounds all moves cost together ({@link MoveCosts.Stall#roundsLost()}). */
    public double roundsLost() {
        return stalls.stream().mapToDouble(MoveCosts.Stall::roundsLost).sum();
    }

    /** Rounds skipped after the last move, while the moved shard's new owner warms up. */
    public static final int SETTLE_ROUNDS = 5;
    /** Rounds skipped at the start (workers joining, the first model version). */
    public static final int WARMUP_ROUNDS = 3;

    /** Reads the records of {@code job} and of the instances {@code instances} (their ids). */
    public static ServerRounds read(
            final TopicCatalog topics, final Properties client, final String job, final Collection<String> instances) {
        final List<ServerTelemetry> rounds = new ArrayList<>();
        readAll(new TopicReader<>(topics.serverTelemetry(), client), value -> {
            if (job.equals(value.getJob())) {
                rounds.add(value);
            }
        });
        final List<ShardPlacement> placements = new ArrayList<>();
        readAll(new TopicReader<>(topics.placements(), client), value -> {
            if (value.getOwners().stream().map(PartitionOwner::getInstance).allMatch(instances::contains)) {
                placements.add(value);
            }
        });
        return of(rounds, placements);
    }

    /** The summary of the given shard-round records and placements. */
    static ServerRounds of(final List<ServerTelemetry> rounds, final List<ShardPlacement> placements) {
        // version -> partition -> first report
        final SortedMap<Long, Map<Integer, ServerTelemetry>> byVersion = new TreeMap<>();
        for (final ServerTelemetry round : rounds) {
            byVersion
                    .computeIfAbsent(round.getVersion(), v -> new TreeMap<>())
                    .putIfAbsent(round.getPartition(), round);
        }
        final SortedMap<Integer, SortedMap<Long, String>> owners = new TreeMap<>();
        final Map<Integer, String> current = new TreeMap<>();
        final Map<Integer, Long> lastReport = new TreeMap<>();
        final List<MoveCosts.Move> moveList = new ArrayList<>();
        int moves = 0;
        long firstMove = -1;
        long lastMove = -1;
        final int partitions =
                byVersion.values().stream().mapToInt(Map::size).max().orElse(0);
        final SortedMap<Long, Long> completedAt = new TreeMap<>();
        for (final Map.Entry<Long, Map<Integer, ServerTelemetry>> entry : byVersion.entrySet()) {
            final long version = entry.getKey();
            long completed = 0;
            for (final ServerTelemetry round : entry.getValue().values()) {
                final String before = current.put(round.getPartition(), round.getInstance());
                if (!round.getInstance().equals(before)) {
                    owners.computeIfAbsent(round.getPartition(), p -> new TreeMap<>())
                            .put(version, round.getInstance());
                    if (before != null) {
                        final double handover =
                                round.getTimestamp().toEpochMilli() - lastReport.get(round.getPartition());
                        moveList.add(new MoveCosts.Move(
                                round.getPartition(), before, round.getInstance(), version, handover, 0));
                        moves++;
                        firstMove = firstMove < 0 ? version : firstMove;
                        lastMove = version;
                    }
                }
                completed = Math.max(completed, round.getTimestamp().toEpochMilli());
                lastReport.merge(round.getPartition(), round.getTimestamp().toEpochMilli(), Math::max);
            }
            if (entry.getValue().size() == partitions) {
                completedAt.put(version, completed);
            }
        }
        final List<Double> before = new ArrayList<>();
        final List<Double> after = new ArrayList<>();
        Map.Entry<Long, Long> previous = null;
        int index = 0;
        for (final Map.Entry<Long, Long> entry : completedAt.entrySet()) {
            if (previous != null && entry.getKey() == previous.getKey() + 1 && index > WARMUP_ROUNDS) {
                final double ms = entry.getValue() - previous.getValue();
                if (firstMove < 0 || entry.getKey() < firstMove) {
                    before.add(ms);
                } else if (entry.getKey() > lastMove + SETTLE_ROUNDS) {
                    after.add(ms);
                }
            }
            previous = entry;
            index++;
        }
        final List<MoveCosts.Move> costed = MoveCosts.restores(moveList, completedAt);
        return new ServerRounds(
                List.copyOf(placements),
                owners,
                moves,
                firstMove,
                lastMove,
                mean(before),
                mean(after),
                costed,
                MoveCosts.stalls(costed, completedAt));
    }

    private static double mean(final List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static <V> void readAll(final TopicReader<String, V> reader, final Consumer<V> sink) {
        try (reader) {
            int idle = 0;
            while (idle < 3) {
                final int read = reader.poll(Duration.ofMillis(200), record -> {
                    if (record.value() != null) {
                        sink.accept(record.value());
                    }
                });
                idle = read == 0 ? idle + 1 : 0;
            }
        }
    }
}
