package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.jobs.WorkerIds;

/**
 * What a {@code membership} record may say, beyond its stamp ({@code CLOCK_SKEW}): checked by the {@code membership}
 * fan-out, which knows every job, and by each shard, which knows the clocks of each worker it applied. A record
 * that fails is refused (the fan-out and shard 0 set it aside on {@code dead-letters}) and changes no live set.
 */
final class MemberChecks {

    private MemberChecks() {}

    /**
     * The fan-out's check: a join, heartbeat or departure of a worker id that is not one of {@code spec}'s
     * ({@link WorkerIds}: an id beyond the job's worker count included) is {@code UNKNOWN_WORKER}, and one at a
     * negative clock {@code MALFORMED}; null when neither.
     */
    static Rejection problem(final JobSpec spec, final WorkerStatus status) {
        if (!WorkerIds.belongsTo(spec, status.getWorker())) {
            return new Rejection(
                    DeadLetterReason.UNKNOWN_WORKER,
                    status.getState() + " of '" + status.getWorker() + "', not one of the " + spec.getExpectedWorkers()
                            + " workers of job " + spec.getJob());
        }
        if (status.getClock() < 0) {
            return new Rejection(
                    DeadLetterReason.MALFORMED,
                    status.getState() + " of " + status.getWorker() + " at clock " + status.getClock());
        }
        return null;
    }

    /**
     * A shard's check, null when it passes: a worker leaves at the clock it has reached (the count of clocks it
     * computed), so a departure at a clock below the {@code applied} clocks of the worker this shard has applied
     * cannot be its own. Such a departure would drop a live worker from the barrier; it is refused, and the
     * worker stays live until it is silent for a session timeout. (A worker restarted within a commit interval
     * of its last gradient can rejoin, and so leave, one clock below what the shard applied: its departure then
     * takes a session timeout to take effect, as a crash does.)
     */
    static String departureProblem(final WorkerStatus status, final long applied) {
        if (status.getState() == WorkerState.LEFT && status.getClock() < applied) {
            return "LEFT of " + status.getWorker() + " at clock " + status.getClock() + ", but " + applied
                    + " of its clocks are applied: a worker leaves at the clock it has reached";
        }
        return null;
    }
}
