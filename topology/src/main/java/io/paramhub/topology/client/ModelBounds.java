package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.PlanChecks;
import io.paramhub.topology.jobs.WorkerIds;
import java.util.List;
import java.util.Map;

/**
 * What a job's {@code model} records can say, as a reader that knows the job ({@link ModelView#bounded}) checks
 * them before it keeps one: a record past these bounds cannot come from the aggregator, and one kept would pin
 * every reader to it (a higher version is kept for ever) or start a joining worker past the job's end.
 *
 * <ul>
 *   <li>its shard count is the job's, and its values lie within the job's {@code parameters};</li>
 *   <li>a job of {@code clocks} clocks: {@code minClock} and each worker's clock count are at most
 *   {@code clocks}, and the version at most {@code (clocks + 1) x workers}. The aggregator makes one version per
 *   clock under BSP and one per gradient under SSP and ASP (every worker's every clock at most; a clock's
 *   gradient once, duplicates are refused); a republished version (a moved {@code minClock}, the final mark)
 *   keeps its number;</li>
 *   <li>a job without an end (a topic without a bound, {@code clocks} &lt; 0): the version and {@code minClock}
 *   grow by at most {@link #ONLINE_STEP} from the record held, so that a forged maximum cannot pin the
 *   readers; the first record a reader takes has no such bound;</li>
 *   <li>the plan it carries ({@link PlanChecks}): shares in [0, 1] summing to one, threads within the cap, every
 *   worker named one of the job's.</li>
 * </ul>
 *
 * @param shards     the job's shard count
 * @param clocks     the job's clocks in all, or -1 for a job without an end
 * @param workers    the job's worker count
 * @param parameters the job's parameter count
 */
public record ModelBounds(int shards, long clocks, int workers, int parameters) {

    /**
     * How far a job without an end may move its version or {@code minClock} from one record a reader holds to the
     * next: far beyond what a reader misses between two polls, far below a forged {@code Long.MAX_VALUE}.
     */
    public static final long ONLINE_STEP = 1L << 24;

    /** The highest version the aggregator can publish for the job, or {@link Long#MAX_VALUE} without an end. */
    public long maxVersion() {
        return clocks < 0 ? Long.MAX_VALUE : (clocks + 1) * workers;
    }

    /**
     * Why {@code shard} cannot be one of the job's records, when the reader holds {@code newest} of its shard (null
     * for none); null when it can.
     */
    public String problem(final ModelShard shard, final ModelShard newest) {
        if (shard.getShards() != shards) {
            return "shard count " + shard.getShards() + ", the job has " + shards;
        }
        final int count = FloatPacking.count(shard.getValues());
        if (shard.getFirstParameter() < 0 || count < 0 || (long) shard.getFirstParameter() + count > parameters) {
            return "values [" + shard.getFirstParameter() + ", +" + count + ") outside the job's " + parameters
                    + " parameters";
        }
        if (shard.getVersion() < 0 || shard.getMinClock() < 0) {
            return "negative version " + shard.getVersion() + " or minClock " + shard.getMinClock();
        }
        final String progress = clocks < 0 ? stepProblem(shard, newest) : endProblem(shard);
        if (progress != null) {
            return progress;
        }
        final String shares = PlanChecks.sharesProblem(shard.getShares());
        if (shares != null) {
            return shares;
        }
        final String threads = PlanChecks.threadsProblem(shard.getThreads());
        if (threads != null) {
            return threads;
        }
        return strangers(shard);
    }

    private String endProblem(final ModelShard shard) {
        if (shard.getVersion() > maxVersion()) {
            return "version " + shard.getVersion() + " is past the " + maxVersion() + " a job of " + clocks
                    + " clocks and " + workers + " workers can reach";
        }
        if (shard.getMinClock() > clocks) {
            return "minClock " + shard.getMinClock() + " is past the job's " + clocks + " clocks";
        }
        for (final Map.Entry<String, Long> clock : shard.getClocks().entrySet()) {
            if (clock.getValue() < 0 || clock.getValue() > clocks) {
                return "clock count " + clock.getValue() + " of " + clock.getKey() + " is outside [0, " + clocks + "]";
            }
        }
        return null;
    }

    private static String stepProblem(final ModelShard shard, final ModelShard newest) {
        if (newest == null) {
            return null;
        }
        if (shard.getVersion() - newest.getVersion() > ONLINE_STEP
                || shard.getMinClock() - newest.getMinClock() > ONLINE_STEP) {
            return "version " + shard.getVersion() + " or minClock " + shard.getMinClock() + " jumps more than "
                    + ONLINE_STEP + " past the version " + newest.getVersion() + " and minClock "
                    + newest.getMinClock() + " held";
        }
        return null;
    }

    /** A worker named in the record's clocks or plan that is not one of the job's. */
    private String strangers(final ModelShard shard) {
        for (final Map<String, ?> named : List.of(shard.getClocks(), shard.getShares(), shard.getThreads())) {
            for (final String worker : named.keySet()) {
                final int index = WorkerIds.indexOf(worker);
                if (index < 0 || index >= workers) {
                    return "it names '" + worker + "', not one of the job's " + workers + " workers";
                }
            }
        }
        return null;
    }
}
