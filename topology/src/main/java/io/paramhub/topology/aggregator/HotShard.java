package io.paramhub.topology.aggregator;

import io.paramhub.avro.AppliedClock;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ShardState;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.LearningRateSchedule;
import io.paramhub.ml.Optimizer;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.topology.sync.SyncPolicy;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One shard's state as the aggregator works on it: decoded once when its task starts, then kept in
 * memory (parameters and optimizer slots as float arrays updated in place, buffered gradients,
 * members), and written out as Avro only when something a restart needs changes: in full
 * ({@link #toState}), or under BSP as progress ({@link #toProgress}) with the clocks applied since the
 * last full snapshot ({@link #replay}), which a restore applies again from the snapshot.
 */
final class HotShard {

    final String key;
    final JobSpec spec;
    final SyncPolicy sync;
    /** A hybrid job's stages (which workers this shard waits for); null when every worker computes every shard. */
    private final StagePlan stages;

    final ShardLayout layout;
    final int shard;
    final int length;
    final Optimizer optimizer;
    final LearningRateSchedule schedule;
    final ShardMembership members;
    final PendingGradients pending = new PendingGradients();
    private final float[] params;
    private final float[][] slots;
    long version;
    long nextClock;
    long minClock;
    long startedAt;
    final Map<String, Long> workerClocks;
    Map<String, Double> shares;
    Map<String, Integer> threads;
    long planEpoch;
    Map<String, Double> pendingShares;
    Map<String, Integer> pendingThreads;
    long pendingEpoch;
    /**
     * Restore only: the stored {@link ShardState#getPendingFromOffset()}, below which none of this shard's
     * gradients is buffered again; none at all for a shard started in this task.
     */
    long restoreFrom = Long.MAX_VALUE;
    /** BSP: the version of the newest full snapshot in {@code shard-snapshot-store}; -1 before the first. */
    long snapshotVersion = -1;
    /** BSP: the clocks applied since {@link #snapshotVersion}, oldest first, with their gradients' offsets. */
    final List<AppliedClock> replay = new ArrayList<>();
    /** Restore only: the gradients of {@link #replay} read again so far, by offset. */
    private final Map<Long, PendingGradients.Pending> replayed = new HashMap<>();
    /**
     * Restore only: how many clocks of {@link #replay} have been applied again. They stay in {@link #replay}:
     * until the next snapshot, a later restore must apply them again too.
     */
    private int replayedClocks;

    private HotShard(
            final String key,
            final JobSpec spec,
            final int shard,
            final float[] params,
            final float[][] slots,
            final ShardMembership members,
            final Map<String, Long> workerClocks) {
        this.stages = spec.getStages() > 1 ? StagePlan.of(spec) : null;
        this.layout = stages != null ? stages.layout() : JobSpecs.layout(spec);
        this.key = key;
        this.spec = spec;
        this.sync = stages != null ? SyncPolicy.of(spec).withExpectedWorkers(stages.replicas()) : SyncPolicy.of(spec);
        this.shard = shard;
        this.length = layout.length(shard);
        this.optimizer = JobSpecs.optimizer(spec);
        this.schedule = JobSpecs.schedule(spec);
        this.params = params;
        this.slots = slots;
        this.members = members;
        this.workerClocks = workerClocks;
    }

    /**
     * Whether {@code worker} computes this shard's gradients: any worker of the job, or in a hybrid job a
     * worker of the stage that owns the shard. The BSP barrier waits for these alone.
     */
    boolean contributes(final String worker) {
        return stages == null || stages.contributesTo(worker, shard);
    }

    /** The stage whose workers compute this shard; 0 when every worker computes every shard. */
    int stage() {
        return stages == null ? 0 : stages.stageOfShard(shard);
    }

    /** Version 0 of {@code shard}: the job's seeded initial parameters, zero optimizer state. */
    static HotShard initial(final String key, final JobSpec spec, final int shard, final ShardMembership members) {
        final float[] params =
                JobSpecs.layout(spec).slice(JobSpecs.model(spec).initialParameters(spec.getSeed()), shard);
        final float[][] slots = new float[JobSpecs.optimizer(spec).stateSlots()][params.length];
        final HotShard hot = new HotShard(key, spec, shard, params, slots, members, new HashMap<>());
        hot.shares = Map.of();
        hot.threads = Map.of();
        hot.planEpoch = -1;
        hot.pendingShares = Map.of();
        hot.pendingThreads = Map.of();
        hot.pendingEpoch = -1;
        return hot;
    }

    /** The shard as last stored; its buffered gradients are not in the store (see {@link GradientRestore}). */
    static HotShard stored(
            final String key, final JobSpec spec, final ShardState state, final ShardMembership members) {
        return stored(key, spec, state, state, members);
    }

    /**
     * The shard as last stored under BSP: parameters and optimizer slots from {@code snapshot}, at its
     * version, progress from {@code state}; {@link #applyReplayed} takes it to {@code state}'s version as
     * the gradients of {@code state}'s replay are read again.
     */
    static HotShard stored(
            final String key,
            final JobSpec spec,
            final ShardState state,
            final ShardState snapshot,
            final ShardMembership members) {
        final float[][] slots = new float[snapshot.getOptimizerState().size()][];
        for (int k = 0; k < slots.length; k++) {
            slots[k] = FloatPacking.unpack(snapshot.getOptimizerState().get(k));
        }
        final HotShard hot = new HotShard(
                key,
                spec,
                state.getShard(),
                FloatPacking.unpack(snapshot.getParams()),
                slots,
                members,
                new HashMap<>(state.getWorkerClocks()));
        hot.version = snapshot.getVersion();
        hot.snapshotVersion = state.getSnapshotVersion();
        hot.replay.addAll(state.getReplay());
        hot.nextClock = state.getNextClock();
        hot.minClock = state.getMinClock();
        hot.startedAt = state.getStartedAt();
        hot.shares = Map.copyOf(state.getShares());
        hot.threads = Map.copyOf(state.getThreads());
        hot.planEpoch = state.getPlanEpoch();
        hot.pendingShares = Map.copyOf(state.getPendingShares());
        hot.pendingThreads = Map.copyOf(state.getPendingThreads());
        hot.pendingEpoch = state.getPendingEpoch();
        hot.restoreFrom = Math.max(0, state.getPendingFromOffset());
        return hot;
    }

    /**
     * One optimizer step with {@code meanGradient}, the mean over every sample of its clock, at the
     * job's schedule for {@code clock}; the version goes up by one.
     */
    void step(final float[] meanGradient, final long clock) {
        optimizer.step(params, meanGradient, slots, version + 1, schedule.factor(clock));
        version++;
    }

    /**
     * Restore: keeps a gradient read again if a clock of {@link #replay} summed it, then applies every
     * clock whose gradients are all back, oldest first, as it was applied the first time; says whether
     * the gradient was one of them.
     */
    boolean replayGradient(final long offset, final PendingGradients.Pending gradient) {
        if (replay.subList(replayedClocks, replay.size()).stream()
                .noneMatch(clock -> clock.getOffsets().contains(offset))) {
            return false;
        }
        replayed.put(offset, gradient);
        applyReplayed();
        return true;
    }

    private void applyReplayed() {
        while (replayedClocks < replay.size()
                && replayed.keySet().containsAll(replay.get(replayedClocks).getOffsets())) {
            final AppliedClock clock = replay.get(replayedClocks++);
            final GradientSum sum = new GradientSum(length);
            for (final long offset : clock.getOffsets()) {
                final PendingGradients.Pending gradient = replayed.remove(offset);
                sum.add(gradient.values(), gradient.samples());
            }
            step(sum.mean(), clock.getClock());
        }
    }

    /** The first clock of {@link #replay} a restore has not applied again yet, if any. */
    Optional<AppliedClock> unreplayed() {
        return replayedClocks < replay.size() ? Optional.of(replay.get(replayedClocks)) : Optional.empty();
    }

    /** A snapshot was taken at the current version: nothing to apply again any more. */
    void snapshotTaken() {
        snapshotVersion = version;
        replay.clear();
        replayedClocks = 0;
    }

    /** The smallest offset a restore must read again from for {@link #replay}, or {@code Long.MAX_VALUE}. */
    long oldestReplayOffset() {
        long oldest = Long.MAX_VALUE;
        for (final AppliedClock clock : replay) {
            for (final long offset : clock.getOffsets()) {
                oldest = Math.min(oldest, offset);
            }
        }
        return oldest;
    }

    long appliedClocks(final String worker) {
        return workerClocks.getOrDefault(worker, 0L);
    }

    /**
     * The stored form; the offsets as {@link ShardState#getPendingFromOffset()} and
     * {@link ShardState#getTaskRestoreFromOffset()} say.
     */
    ShardState toState(final ByteBuffer packedParams, final long pendingFromOffset, final long taskRestoreFromOffset) {
        final List<ByteBuffer> packedSlots = new ArrayList<>(slots.length);
        for (final float[] slot : slots) {
            packedSlots.add(FloatPacking.pack(slot));
        }
        return progress(pendingFromOffset, taskRestoreFromOffset)
                .setParams(packedParams.duplicate())
                .setOptimizerState(packedSlots)
                .build();
    }

    /**
     * BSP: the stored form without parameters and optimizer slots, which {@code shard-snapshot-store}
     * holds as of {@link #snapshotVersion}, and with the clocks applied since.
     */
    ShardState toProgress(final long pendingFromOffset, final long taskRestoreFromOffset) {
        return progress(pendingFromOffset, taskRestoreFromOffset)
                .setParams(ByteBuffer.allocate(0))
                .setOptimizerState(List.of())
                .setSnapshotVersion(snapshotVersion)
                .setReplay(new ArrayList<>(replay))
                .build();
    }

    private ShardState.Builder progress(final long pendingFromOffset, final long taskRestoreFromOffset) {
        return ShardState.newBuilder()
                .setJob(spec.getJob())
                .setShard(shard)
                .setVersion(version)
                .setNextClock(nextClock)
                .setMinClock(minClock)
                .setWorkerClocks(new HashMap<>(workerClocks))
                .setStartedAt(startedAt)
                .setShares(shares)
                .setThreads(threads)
                .setPlanEpoch(planEpoch)
                .setPendingShares(pendingShares)
                .setPendingThreads(pendingThreads)
                .setPendingEpoch(pendingEpoch)
                .setPendingFromOffset(pendingFromOffset)
                .setTaskRestoreFromOffset(taskRestoreFromOffset);
    }

    ByteBuffer packedParams() {
        return FloatPacking.pack(params);
    }

    /** The version as published on {@code model}. */
    ModelShard toModel(final ByteBuffer packedParams, final Instant now) {
        return ModelShard.newBuilder()
                .setJob(spec.getJob())
                .setShard(shard)
                .setShards(spec.getShards())
                .setFirstParameter(layout.first(shard))
                .setVersion(version)
                .setMinClock(minClock)
                .setClocks(new HashMap<>(workerClocks))
                .setShares(shares)
                .setThreads(threads)
                .setPlanEpoch(planEpoch)
                .setValues(packedParams.duplicate())
                .setUpdatedAt(now)
                .build();
    }
}
