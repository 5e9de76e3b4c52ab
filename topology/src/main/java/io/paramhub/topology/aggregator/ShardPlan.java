package io.paramhub.topology.aggregator;

import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardState;
import java.util.HashMap;
import java.util.Map;

/**
 * The orchestrator's plan (batch shares and compute threads by worker) as a shard keeps it: the plan in
 * force, which rides with every model version, and the commands of a newer plan gathered so far. Immutable:
 * {@link #accept} returns the plan after one command.
 *
 * @param shares         the batch share of each worker, in force
 * @param threads        the compute threads of each worker, in force
 * @param epoch          the version of the plan in force; -1 before the first
 * @param pendingShares  the batch shares of the plan being gathered
 * @param pendingThreads the compute threads of the plan being gathered
 * @param pendingEpoch   the version of the plan being gathered (or of the plan in force once it is complete); -1
 *                       before the first command
 */
record ShardPlan(
        Map<String, Double> shares,
        Map<String, Integer> threads,
        long epoch,
        Map<String, Double> pendingShares,
        Map<String, Integer> pendingThreads,
        long pendingEpoch) {

    /** No plan yet: a shard just started. */
    static final ShardPlan NONE = new ShardPlan(Map.of(), Map.of(), -1, Map.of(), Map.of(), -1);

    /** The plan as {@code state} stored it. */
    static ShardPlan of(final ShardState state) {
        return new ShardPlan(
                Map.copyOf(state.getShares()),
                Map.copyOf(state.getThreads()),
                state.getPlanEpoch(),
                Map.copyOf(state.getPendingShares()),
                Map.copyOf(state.getPendingThreads()),
                state.getPendingEpoch());
    }

    /**
     * The plan with {@code command} gathered: once every worker the command's plan names has its command,
     * that plan is in force. This same plan for a command of a plan older than the one in force or the one
     * being gathered.
     */
    ShardPlan accept(final ResourceCommand command) {
        final long commandEpoch = command.getEpoch();
        if (commandEpoch <= epoch || commandEpoch < pendingEpoch) {
            return this;
        }
        final boolean samePlan = commandEpoch == pendingEpoch;
        final Map<String, Double> gatheredShares = samePlan ? new HashMap<>(pendingShares) : new HashMap<>();
        final Map<String, Integer> gatheredThreads = samePlan ? new HashMap<>(pendingThreads) : new HashMap<>();
        gatheredShares.put(command.getWorker(), command.getBatchShare());
        gatheredThreads.put(command.getWorker(), command.getThreads());
        if (gatheredShares.keySet().containsAll(command.getSpeeds().keySet())) {
            return new ShardPlan(gatheredShares, gatheredThreads, commandEpoch, Map.of(), Map.of(), commandEpoch);
        }
        return new ShardPlan(shares, threads, epoch, gatheredShares, gatheredThreads, commandEpoch);
    }

    /** Writes the plan into a shard's stored form. */
    ShardState.Builder storeIn(final ShardState.Builder state) {
        return state.setShares(shares)
                .setThreads(threads)
                .setPlanEpoch(epoch)
                .setPendingShares(pendingShares)
                .setPendingThreads(pendingThreads)
                .setPendingEpoch(pendingEpoch);
    }
}
