package io.paramhub.topology.aggregator;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.ShardLayout;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.topology.sync.SyncPolicy;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;

/**
 * One shard's state as the aggregator works on it, behind its transitions: decoded once when its task
 * starts, then kept in memory (parameters and optimizer slots as float arrays updated in place, buffered
 * gradients, members, the plan) and changed only by {@link #admit}, {@link #buffer}, {@link #applyOnArrival},
 * {@link #applyNextClock}, {@link #acceptCommand}, {@link #memberEvent} and their kin. Written out as Avro
 * only when something a restart needs changes: in full, or under BSP as progress with the clocks applied
 * since the last full snapshot ({@link ReplayLog}), which a restore applies again from the snapshot.
 */
final class HotShard {

    private final String key;
    private final JobSpec spec;
    private final SyncPolicy sync;
    /** The job's stages: which workers compute this shard, and so which its barrier waits for. */
    private final StagePlan stages;

    private final ShardLayout layout;
    private final int shard;
    private final int length;
    private final ShardMembership members;
    private final PendingGradients pending = new PendingGradients();
    private final ShardParameters parameters;
    private final ShardClocks clocks;
    private final ReplayLog replay;
    private final ShardLineage lineage;
    /**
     * Restore only: the stored {@link ShardState#getPendingFromOffset()}, below which none of this shard's
     * gradients is buffered again; none at all for a shard started in this task.
     */
    private final long restoreFrom;

    private ShardPlan plan;

    private HotShard(
            final String key,
            final JobSpec spec,
            final int shard,
            final ShardParameters parameters,
            final ShardClocks clocks,
            final ShardPlan plan,
            final ShardMembership members,
            final ReplayLog replay,
            final long restoreFrom) {
        this.stages = StagePlan.of(spec);
        this.layout = stages.layout();
        this.key = key;
        this.spec = spec;
        this.sync = SyncPolicy.of(spec).withExpectedWorkers(stages.replicas());
        this.shard = shard;
        this.length = layout.length(shard);
        this.parameters = parameters;
        this.clocks = clocks;
        this.plan = plan;
        this.members = members;
        this.replay = replay;
        this.restoreFrom = restoreFrom;
        this.lineage = ShardLineage.of(shard);
    }

    /** Version 0 of {@code shard}: the job's seeded initial parameters, zero optimizer state. */
    static HotShard initial(final String key, final JobSpec spec, final int shard, final ShardMembership members) {
        return new HotShard(
                key,
                spec,
                shard,
                ShardParameters.initial(spec, shard),
                ShardClocks.initial(),
                ShardPlan.NONE,
                members,
                ReplayLog.empty(),
                Long.MAX_VALUE);
    }

    /** The shard as last stored; its buffered gradients are not in the store (see {@link GradientRestore}). */
    static HotShard stored(
            final String key, final JobSpec spec, final ShardState state, final ShardMembership members) {
        return stored(key, spec, state, state, members);
    }

    /**
     * The shard as last stored under BSP: parameters and optimizer slots from {@code snapshot}, at its
     * version, progress from {@code state}; {@link #restoreGradient} takes it to {@code state}'s version as
     * the gradients of {@code state}'s replay are read again.
     */
    static HotShard stored(
            final String key,
            final JobSpec spec,
            final ShardState state,
            final ShardState snapshot,
            final ShardMembership members) {
        return new HotShard(
                key,
                spec,
                state.getShard(),
                ShardParameters.of(spec, snapshot),
                ShardClocks.of(state),
                ShardPlan.of(state),
                members,
                ReplayLog.stored(state.getSnapshotVersion(), state.getReplay()),
                Math.max(0, state.getPendingFromOffset()));
    }

    String key() {
        return key;
    }

    JobSpec spec() {
        return spec;
    }

    int shard() {
        return shard;
    }

    ShardMembership members() {
        return members;
    }

    /** BSP: gradients wait for their clock's barrier. SSP and ASP: each is applied on arrival. */
    boolean waitsForBarrier() {
        return sync.waitsForBarrier();
    }

    /**
     * Checks a gradient read from {@code gradients}: valid for the shard, from a worker that computes it, not
     * applied or buffered yet, not too far ahead, not stale. A stale one still counts its clock as processed
     * for its worker (it has moved on and is not waited for): a change to store.
     */
    Admission admit(final GradientShard gradient) {
        final GradientChecks.Checked checked = GradientChecks.check(spec, layout, gradient);
        if (checked.rejection() != null) {
            return Admission.refused(checked.rejection());
        }
        final long clock = gradient.getClock();
        final List<String> workers = GradientChecks.workersOf(gradient);
        for (final String worker : workers) {
            if (!stages.contributesTo(worker, shard)) {
                return Admission.notOfStage(gradient, worker, stages.stageOfShard(shard));
            }
            final long appliedClocks = clocks.of(worker);
            final boolean buffered = clock >= appliedClocks && pending.contains(clock, worker);
            if (clock < appliedClocks || buffered) {
                return Admission.duplicate(gradient, worker, buffered);
            }
        }
        if (sync.tooFarAhead(clocks.minClock(), clock)) {
            return Admission.clockAhead(gradient, sync.aheadBound(), clocks.minClock());
        }
        final Optional<Rejection> trainedAlready = lineage.refusal(gradient);
        if (trainedAlready.isPresent()) {
            return Admission.refused(trainedAlready.get());
        }
        final long version = parameters.version();
        if (sync.tooStale(version, gradient.getBaseVersion())) {
            workers.forEach(worker -> clocks.processed(worker, clock));
            return Admission.stale(gradient, version, sync.versionBound());
        }
        return Admission.accepted(checked.values(), version - gradient.getBaseVersion());
    }

    /**
     * A gradient shows the workers it holds are alive; says whether that moved a last-seen time by a tenth of the
     * session timeout.
     */
    boolean noteSenders(final GradientShard gradient, final long now) {
        return members.noteSenders(
                GradientChecks.workersOf(gradient), gradient.getClock(), now, spec.getSessionTimeoutMs());
    }

    /** SSP and ASP: one optimizer step with an admitted gradient, divided by the global batch (one clock's add up to a BSP step). */
    void applyOnArrival(final GradientShard gradient, final GradientValues values, final long now) {
        final float[] mean = values.dividedBy(spec.getGlobalBatch());
        GradientChecks.workersOf(gradient).forEach(worker -> clocks.processed(worker, gradient.getClock()));
        clocks.firstGradientAt(now);
        parameters.step(mean, gradient.getClock());
        lineage.apply(gradient.getExamples());
        clocks.minClock(clocks.nextMinClock(members.live(spec.getSessionTimeoutMs()), now, sync, members::heardFrom));
    }

    /** BSP: holds an admitted gradient, read at {@code offset}, until its clock; says whether it is the shard's first. */
    boolean buffer(final GradientShard gradient, final GradientValues values, final long offset, final long now) {
        pending.add(gradient.getClock(), gradient.getWorker(), PendingGradients.Pending.of(gradient, values, offset));
        lineage.hold(gradient.getExamples());
        return clocks.firstGradientAt(now);
    }

    /**
     * BSP: applies the next clock if its barrier is passed (its gradients summed in the order of the workers that
     * sent them, as one version); returns how many workers' gradients it applied, 0 when the clock is not complete.
     */
    int applyNextClock(final long now) {
        final long clock = clocks.nextClock();
        final NavigableMap<String, PendingGradients.Pending> gradients = pending.ofClock(clock);
        final Set<String> workers = pending.workersOf(clock);
        if (!complete(clock, workers, now)) {
            return 0;
        }
        final GradientSum sum = new GradientSum(length);
        final List<Long> offsets = new ArrayList<>(gradients.size());
        for (final Map.Entry<String, PendingGradients.Pending> entry : gradients.entrySet()) {
            entry.getValue().values().addTo(sum, entry.getValue().samples());
            offsets.add(entry.getValue().offset());
            lineage.apply(entry.getValue().examples());
        }
        workers.forEach(worker -> clocks.processed(worker, clock));
        parameters.step(sum.mean(), clock);
        replay.applied(clock, offsets);
        clocks.barrierPassed(clock);
        pending.removeClock(clock);
        return workers.size();
    }

    /** SSP and ASP: moves {@code minClock} as far as it may go at {@code now}; says whether a version is due. */
    boolean advanceMinClock(final long now) {
        final long live = clocks.nextMinClock(members.live(spec.getSessionTimeoutMs()), now, sync, members::heardFrom);
        if (sync.versionDue(live, clocks.minClock())) {
            clocks.minClock(live);
            return true;
        }
        return false;
    }

    /**
     * Restore: a gradient read again from {@code gradients} at {@code offset}. If a clock applied since the
     * snapshot summed it, it is applied again with that clock; else it is buffered again if it was buffered
     * before the task stopped: at or after the stored {@code pendingFromOffset}, of this job's incarnation,
     * valid, not yet applied, not stale. Says whether it was buffered.
     */
    boolean restoreGradient(final GradientShard gradient, final long offset, final long timestamp) {
        if (!sync.waitsForBarrier() || timestamp < spec.getCreatedAt().toEpochMilli()) {
            return false;
        }
        final GradientChecks.Checked checked = GradientChecks.check(spec, layout, gradient);
        if (checked.rejection() != null) {
            return false;
        }
        final PendingGradients.Pending read = PendingGradients.Pending.of(gradient, checked.values(), offset);
        final List<String> workers = read.workers();
        if (replay.readAgain(offset, read)) {
            replay.applyReplayable(parameters, length);
            return false;
        }
        final long clock = gradient.getClock();
        if (offset < restoreFrom
                || workers.stream()
                        .anyMatch(worker -> !stages.contributesTo(worker, shard)
                                || clock < clocks.of(worker)
                                || pending.contains(clock, worker))
                || sync.tooFarAhead(clocks.minClock(), clock)
                || sync.tooStale(parameters.version(), gradient.getBaseVersion())
                || lineage.refusal(gradient).isPresent()) {
            return false;
        }
        pending.add(clock, gradient.getWorker(), read);
        lineage.hold(gradient.getExamples());
        return true;
    }

    /**
     * After a restore read: why the shard could not be brought from its snapshot to its stored version, naming
     * it, when gradients it needs were not read again (deleted by retention); empty when it was.
     */
    Optional<String> replayGap() {
        return replay.unreplayed()
                .map(missing -> "shard " + key + " cannot be rebuilt: its snapshot is at version "
                        + replay.snapshotVersion() + " and the gradients of clock " + missing.getClock()
                        + " (offsets " + missing.getOffsets() + " of its gradients partition) were not found; "
                        + "was the topic's retention shorter than the time since the snapshot?");
    }

    /** Gathers a command of the orchestrator's plan, its epoch bounded by this shard's clock ({@link ShardPlan#gather}). */
    ShardPlan.Gathered acceptCommand(final ResourceCommand command) {
        final ShardPlan.Gathered gathered = plan.gather(command, ShardPlan.epochBound(clocks.minClock(), sync));
        plan = gathered.plan();
        return gathered;
    }

    /**
     * A worker joining, beating or leaving, read at {@code timestamp}: it advances the shard's heartbeat
     * clock, and workers silent for a session timeout by that clock leave the live set; returns those.
     */
    Set<String> memberEvent(final WorkerStatus status, final long timestamp) {
        members.membershipEvent(status, timestamp);
        return members.expire(spec.getSessionTimeoutMs());
    }

    /** Why {@code status} cannot come from its worker, given the clocks of it applied here ({@link MemberChecks}). */
    String memberProblem(final WorkerStatus status) {
        return MemberChecks.departureProblem(status, clocks.of(status.getWorker()));
    }

    /** Whether this is the job's final version: every worker has left finished and its clocks are all in. */
    boolean finished() {
        return members.allFinished(clocks::of, worker -> stages.contributesTo(worker, shard));
    }

    ShardMembers membersAvro() {
        return members.toAvro();
    }

    /** BSP: every worker has left while clocks applied since the snapshot would have to be read again. */
    boolean abandonedSinceSnapshot() {
        return sync.waitsForBarrier()
                && !replay.isEmpty()
                && members.live(spec.getSessionTimeoutMs()).isEmpty();
    }

    /** BSP: whether a full snapshot is due: none yet, or {@code everyClocks} versions since the last. */
    boolean snapshotDue(final int everyClocks) {
        return sync.waitsForBarrier()
                && (replay.snapshotVersion() < 0 || parameters.version() - replay.snapshotVersion() >= everyClocks);
    }

    /** BSP: a shard stored in full before snapshots existed, whose progress record must name a snapshot. */
    boolean lacksSnapshot() {
        return sync.waitsForBarrier() && replay.snapshotVersion() < 0;
    }

    /** A full snapshot at the current version, from now on the base of the stored progress. */
    ShardState snapshot(final ByteBuffer packedParams) {
        final ShardState snapshot = toState(packedParams, -1, -1);
        replay.snapshotTaken(parameters.version());
        return snapshot;
    }

    /** The smallest offset among the buffered gradients, or -1 when none is buffered. */
    long oldestPendingOffset() {
        return pending.oldestOffset();
    }

    /** The smallest offset a restore must read again from for the clocks applied since the snapshot, or {@code Long.MAX_VALUE}. */
    long oldestReplayOffset() {
        return replay.oldestOffset();
    }

    /**
     * The form for {@code shard-state-store}: under BSP progress only ({@code packedParams} may be null), else
     * in full; the offsets as {@link ShardState#getPendingFromOffset()} and
     * {@link ShardState#getTaskRestoreFromOffset()} say.
     */
    ShardState toStored(final ByteBuffer packedParams, final long pendingFromOffset, final long taskRestoreFromOffset) {
        return sync.waitsForBarrier()
                ? toProgress(pendingFromOffset, taskRestoreFromOffset)
                : toState(
                        packedParams != null ? packedParams : packedParams(), pendingFromOffset, taskRestoreFromOffset);
    }

    ByteBuffer packedParams() {
        return parameters.packedParams();
    }

    /** The version as published on {@code model}. */
    ModelShard toModel(final ByteBuffer packedParams, final Instant now) {
        return clocks.publishIn(ModelShard.newBuilder()
                        .setJob(spec.getJob())
                        .setShard(shard)
                        .setShards(spec.getShards())
                        .setFirstParameter(layout.first(shard))
                        .setVersion(parameters.version()))
                .setShares(plan.shares())
                .setThreads(plan.threads())
                .setPlanEpoch(plan.epoch())
                .setValues(packedParams.duplicate())
                .setUpdatedAt(now)
                .setExamples(lineage.toAvro())
                .build();
    }

    /** Shard 0's examples: the lineage of its version, those of the gradients it holds, the newly added. */
    ShardLineage lineage() {
        return lineage;
    }

    /** The restored version, as offered to the HTTP endpoints when a task starts. */
    ModelShard restoredModel() {
        return toModel(packedParams(), Instant.ofEpochMilli(clocks.startedAt()));
    }

    /**
     * Whether BSP clock {@code clock} can be applied: the gradient of every live worker, and of every worker that
     * left after sending one ({@link ShardMembership#owing}), is in and, until every expected worker has been heard
     * from or one session timeout after the shard's first gradient, every expected worker's.
     */
    private boolean complete(final long clock, final Set<String> contributors, final long now) {
        return sync.barrierPassed(
                contributors,
                now,
                clocks.startedAt(),
                () -> (int) members.everSeenWith(contributors).stream()
                        .filter(worker -> stages.contributesTo(worker, shard))
                        .count(),
                () -> stages.contributorsTo(shard, members.owing(clock, spec.getSessionTimeoutMs())));
    }

    /** The full stored form: parameters and optimizer slots with the progress. */
    private ShardState toState(
            final ByteBuffer packedParams, final long pendingFromOffset, final long taskRestoreFromOffset) {
        return progress(pendingFromOffset, taskRestoreFromOffset)
                .setParams(packedParams.duplicate())
                .setOptimizerState(parameters.packedSlots())
                .build();
    }

    /**
     * BSP: the stored form without parameters and optimizer slots, which {@code shard-snapshot-store}
     * holds as of the snapshot version, and with the clocks applied since.
     */
    private ShardState toProgress(final long pendingFromOffset, final long taskRestoreFromOffset) {
        return progress(pendingFromOffset, taskRestoreFromOffset)
                .setParams(ByteBuffer.allocate(0))
                .setOptimizerState(List.of())
                .setSnapshotVersion(replay.snapshotVersion())
                .setReplay(replay.toAvro())
                .build();
    }

    private ShardState.Builder progress(final long pendingFromOffset, final long taskRestoreFromOffset) {
        return plan.storeIn(clocks.storeIn(ShardState.newBuilder()
                        .setJob(spec.getJob())
                        .setShard(shard)
                        .setVersion(parameters.version())))
                .setPendingFromOffset(pendingFromOffset)
                .setTaskRestoreFromOffset(taskRestoreFromOffset);
    }
}
