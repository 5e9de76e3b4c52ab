package io.paramhub.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What moving shard partitions cost a run, from the moments each model version was complete: for each version
 * at which partitions changed owner, the time the rounds from it to {@value ServerRounds#SETTLE_ROUNDS} rounds
 * later took beyond the pace the run settled to after it, and that time in rounds of that pace.
 */
public final class MoveCosts {

    /**
     * One partition's move: from instance {@code from} to {@code to}, whose first version was {@code version};
     * {@code handoverMs} from the old owner's last shard-round on it to the new owner's first (a round and the
     * restore), {@code restoreMs} that less the median round before the first move.
     */
    public record Move(int partition, String from, String to, long version, double handoverMs, double restoreMs) {}

    /** The moves at one version: the extra time of the rounds they touched and how many rounds that is. */
    public record Stall(long version, int partitions, double lostMs, double roundsLost) {}

    private MoveCosts() {}

    /** {@code moves} with their restore time: the handover less the median round before the first move. */
    static List<Move> restores(final List<Move> moves, final SortedMap<Long, Long> completedAt) {
        final long first = moves.stream().mapToLong(Move::version).min().orElse(Long.MAX_VALUE);
        final double typical = medianRound(completedAt, Long.MIN_VALUE, first);
        return moves.stream()
                .map(move -> new Move(
                        move.partition(),
                        move.from(),
                        move.to(),
                        move.version(),
                        move.handoverMs(),
                        Double.isNaN(typical) ? Double.NaN : Math.max(0, move.handoverMs() - typical)))
                .toList();
    }

    /**
     * The stall of each version in {@code moves}: with {@code completedAt} (version → when it was complete on
     * every partition), the rounds from the version to {@value ServerRounds#SETTLE_ROUNDS} later, less as many
     * rounds at the median pace after them (to the next move, or the end; without rounds there, before them).
     */
    static List<Stall> stalls(final List<Move> moves, final SortedMap<Long, Long> completedAt) {
        final SortedSet<Long> versions = new TreeSet<>();
        moves.forEach(move -> versions.add(move.version()));
        final List<Stall> stalls = new ArrayList<>();
        for (final long version : versions) {
            final long settled = version + ServerRounds.SETTLE_ROUNDS;
            final SortedSet<Long> later = versions.tailSet(version + 1);
            final long next = later.isEmpty() ? Long.MAX_VALUE : later.first();
            double pace = medianRound(completedAt, settled + 1, next);
            if (Double.isNaN(pace)) {
                pace = medianRound(completedAt, Long.MIN_VALUE, version);
            }
            final Long start = completedAt.get(version - 1);
            final Long end = completedAt.get(Math.min(settled, next - 1));
            if (Double.isNaN(pace) || start == null || end == null) {
                continue;
            }
            final long rounds = Math.min(settled, next - 1) - (version - 1);
            final double lost = Math.max(0, (end - start) - rounds * pace);
            final int partitions = (int)
                    moves.stream().filter(move -> move.version() == version).count();
            stalls.add(new Stall(version, partitions, lost, lost / pace));
        }
        return stalls;
    }

    /** The median time of the rounds that complete versions in [{@code from}, {@code to}). */
    static double medianRound(final SortedMap<Long, Long> completedAt, final long from, final long to) {
        final List<Double> rounds = new ArrayList<>();
        Map.Entry<Long, Long> previous = null;
        for (final Map.Entry<Long, Long> entry : completedAt.entrySet()) {
            if (previous != null
                    && entry.getKey() == previous.getKey() + 1
                    && entry.getKey() >= from
                    && entry.getKey() < to) {
                rounds.add((double) (entry.getValue() - previous.getValue()));
            }
            previous = entry;
        }
        if (rounds.isEmpty()) {
            return Double.NaN;
        }
        rounds.sort(Double::compare);
        final int n = rounds.size();
        return n % 2 == 1 ? rounds.get(n / 2) : (rounds.get(n / 2 - 1) + rounds.get(n / 2)) / 2;
    }
}
