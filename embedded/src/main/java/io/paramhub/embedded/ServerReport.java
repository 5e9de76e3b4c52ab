package io.paramhub.embedded;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ShardPlacement;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * Where the shards of a run ran, for the demo's output and its JSON report ({@code servers}): the aggregator
 * instances and their emulation, each partition's owners over time ({@code placements_over_time}: from model
 * version N on, instance X), the orchestrator's placements, the number of moves, the mean round time before
 * the first move and after the last ({@link ServerRounds}), what the moves cost ({@code move_costs}: each
 * partition's handover and restore time; {@code move_stalls}: the rounds lost at each version where partitions
 * moved; {@code rounds_lost_to_moves}) and the aggregators' rebalances after start-up.
 */
public final class ServerReport {

    private ServerReport() {}

    public static void addTo(
            final ObjectNode root,
            final ServerRounds rounds,
            final ServerEmulation emulation,
            final List<String> instances,
            final long rebalances) {
        root.set("servers", toJson(rounds, emulation, instances, rebalances));
    }

    /**
     * The {@code servers} section on its own (the bench puts one in each policy's entry); {@code rebalances}:
     * the aggregators' rebalances after start-up ({@link TrainingRun.Result#aggregatorRebalances()}).
     */
    public static ObjectNode toJson(
            final ServerRounds rounds,
            final ServerEmulation emulation,
            final List<String> instances,
            final long rebalances) {
        final ObjectNode servers = JsonNodeFactory.instance.objectNode();
        final ArrayNode list = servers.putArray("instances");
        for (int index = 0; index < instances.size(); index++) {
            list.addObject()
                    .put("instance", instances.get(index))
                    .put("round_cost_us", emulation.roundCostMicros())
                    .put("slowdown", emulation.slowdownOf(index));
        }
        final ObjectNode owners = servers.putObject("placements_over_time");
        rounds.owners().forEach((partition, timeline) -> {
            final ArrayNode steps = owners.putArray("partition-" + partition);
            timeline.forEach((version, instance) ->
                    steps.addObject().put("from_version", version).put("instance", instance));
        });
        servers.put("first_placement", FirstPlacement.of(rounds, instances).toString());
        servers.put("moves", rounds.moves());
        servers.put("round_ms_before_first_move", rounds.roundMsBefore());
        servers.put("round_ms_after_last_move", rounds.roundMsAfter());
        servers.put("rebalances_after_start", rebalances);
        servers.put("rounds_lost_to_moves", rounds.roundsLost());
        final ArrayNode costs = servers.putArray("move_costs");
        for (final MoveCosts.Move move : rounds.moveList()) {
            costs.addObject()
                    .put("partition", move.partition())
                    .put("from", move.from())
                    .put("to", move.to())
                    .put("version", move.version())
                    .put("handover_ms", move.handoverMs())
                    .put("restore_ms", move.restoreMs());
        }
        final ArrayNode stalls = servers.putArray("move_stalls");
        for (final MoveCosts.Stall stall : rounds.stalls()) {
            stalls.addObject()
                    .put("version", stall.version())
                    .put("partitions", stall.partitions())
                    .put("lost_ms", stall.lostMs())
                    .put("rounds_lost", stall.roundsLost());
        }
        final ArrayNode placements = servers.putArray("placements");
        for (final ShardPlacement placement : rounds.placements()) {
            final ObjectNode node = placements.addObject();
            node.put("version", placement.getVersion());
            node.put("issued_at", placement.getIssuedAt().toString());
            final ObjectNode named = node.putObject("owners");
            for (final PartitionOwner owner : placement.getOwners()) {
                named.put("partition-" + owner.getPartition(), owner.getInstance());
            }
            node.put("predicted_round_ms", placement.getPredictedRoundMs());
            node.put("current_round_ms", placement.getCurrentRoundMs());
            node.put("recommended_instances", placement.getRecommendedInstances());
            node.put("reason", placement.getReason());
        }
        return servers;
    }

    /** The report for people; {@code instances}: the run's aggregator ids, by index. */
    public static void print(final PrintStream out, final ServerRounds rounds, final List<String> instances) {
        out.println("shard partitions ran on (from model version):");
        rounds.owners()
                .forEach((partition, timeline) ->
                        out.printf(Locale.ROOT, "  partition %d: %s%n", partition, describe(timeline)));
        out.printf(Locale.ROOT, "first placement (--first-placement): %s%n", FirstPlacement.of(rounds, instances));
        for (final ShardPlacement placement : rounds.placements()) {
            out.printf(Locale.ROOT, "placement %d: %s%n", placement.getVersion(), placement.getReason());
        }
        for (final MoveCosts.Move move : rounds.moveList()) {
            out.printf(
                    Locale.ROOT,
                    "  move of partition %d to %s from version %d: handover %.0f ms (restore %.0f ms)%n",
                    move.partition(),
                    move.to(),
                    move.version(),
                    move.handoverMs(),
                    move.restoreMs());
        }
        out.printf(
                Locale.ROOT,
                "%d shard move%s (%.1f rounds lost); mean round %.1f ms before the first move, %.1f ms after the last%n",
                rounds.moves(),
                rounds.moves() == 1 ? "" : "s",
                rounds.roundsLost(),
                rounds.roundMsBefore(),
                rounds.roundMsAfter());
    }

    private static String describe(final SortedMap<Long, String> timeline) {
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<Long, String> step : timeline.entrySet()) {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(step.getValue()).append(" (").append(step.getKey()).append(')');
        }
        return text.toString();
    }
}
