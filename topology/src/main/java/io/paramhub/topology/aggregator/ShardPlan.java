package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardState;
import io.paramhub.topology.jobs.PlanChecks;
import io.paramhub.topology.sync.SyncPolicy;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

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

    /** No change and no refusal: the plan a command left as it was. */
    Gathered unchanged() {
        return new Gathered(this, false, null);
    }

    /**
     * What one command did: the plan after it, whether that differs from the plan before, and why the command was
     * refused (null when it was not; the plan then is the one before, or, for a whole plan that is not valid, the
     * plan before with the refused plan's epoch used up).
     */
    record Gathered(ShardPlan plan, boolean changed, String refusal) {

        /** The refusal as a dead letter's: {@code INVALID_COMMAND}. */
        Optional<Rejection> rejection() {
            return Optional.ofNullable(refusal).map(why -> new Rejection(DeadLetterReason.INVALID_COMMAND, why));
        }
    }

    /**
     * The plan with {@code command} gathered: once every worker the command's plan names has its command, that
     * plan is in force, if its shares sum to one and its threads are within the cap ({@link PlanChecks}); else it
     * is refused and the plan in force stays. A command of a plan older than the one in force or the one being
     * gathered changes nothing. A command is refused, and changes nothing, when its epoch is out of step with the
     * orchestrator's ({@link #epochProblem}); {@code epochBound} is the highest epoch the orchestrator can have
     * reached.
     */
    Gathered gather(final ResourceCommand command, final long epochBound) {
        final long commandEpoch = command.getEpoch();
        final String outOfStep = epochProblem(commandEpoch, epochBound);
        if (outOfStep != null) {
            return new Gathered(this, false, outOfStep);
        }
        if (commandEpoch <= epoch || commandEpoch < pendingEpoch) {
            return unchanged();
        }
        final boolean samePlan = commandEpoch == pendingEpoch;
        final Map<String, Double> gatheredShares = samePlan ? new HashMap<>(pendingShares) : new HashMap<>();
        final Map<String, Integer> gatheredThreads = samePlan ? new HashMap<>(pendingThreads) : new HashMap<>();
        gatheredShares.put(command.getWorker(), command.getBatchShare());
        gatheredThreads.put(command.getWorker(), command.getThreads());
        if (!gatheredShares.keySet().containsAll(command.getSpeeds().keySet())) {
            return new Gathered(
                    new ShardPlan(shares, threads, epoch, gatheredShares, gatheredThreads, commandEpoch), true, null);
        }
        final String shareProblem = PlanChecks.sharesProblem(gatheredShares);
        final String problem = shareProblem != null ? shareProblem : PlanChecks.threadsProblem(gatheredThreads);
        if (problem != null) {
            return new Gathered(
                    new ShardPlan(shares, threads, epoch, Map.of(), Map.of(), commandEpoch),
                    true,
                    "plan " + commandEpoch + " refused: " + problem);
        }
        return new Gathered(
                new ShardPlan(gatheredShares, gatheredThreads, commandEpoch, Map.of(), Map.of(), commandEpoch),
                true,
                null);
    }

    /** The highest epoch an orchestrator can have reached when shard 0 is at {@code minClock} ({@link #epochProblem}). */
    static long epochBound(final long minClock, final SyncPolicy sync) {
        final long ahead = sync.aheadBound();
        return ahead >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : minClock + ahead + 1;
    }

    /**
     * Why a command of plan {@code commandEpoch} cannot be the current orchestrator's, or null. The orchestrator
     * numbers its plans one by one ({@code JobState.planIssued}: the last plan's version plus one) and issues at most
     * one a round, a round being a clock every worker has reported, so plan k comes at round k or later. Hence a
     * command may only be of the plan in force or gathered, or of the one after it, and never of a plan past
     * {@code epochBound}: the rounds the workers can have reached, shard 0's {@code minClock} plus the sync mode's
     * ahead bound. A forged maximum epoch is refused, and a forger can take at most the next plan's number: the
     * orchestrator's own plan of that number is then passed over and its next plan is taken again.
     */
    String epochProblem(final long commandEpoch, final long epochBound) {
        final long known = Math.max(epoch, pendingEpoch);
        if (known >= 0 && commandEpoch > known + 1) {
            return "epoch " + commandEpoch + " skips ahead of plan " + known
                    + ": the orchestrator numbers its plans one by one";
        }
        if (commandEpoch > epochBound) {
            return "epoch " + commandEpoch + " is past the " + epochBound
                    + " rounds the job's workers can have reached: the orchestrator plans at most once a round";
        }
        return null;
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
