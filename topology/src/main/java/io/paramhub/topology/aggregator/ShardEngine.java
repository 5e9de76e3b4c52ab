package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.sync.SyncPolicy;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parameter server of the shards one task owns: starts a shard on its job, tracks its live workers, and applies
 * gradients as the job's sync mode says. Each shard is decoded once, when the task starts, and kept in memory
 * ({@link HotShard}); the stores get its Avro form only when a restart would need it: a new version, a worker's clock
 * moved past a stale gradient, a plan, a membership change. Gradients waiting for their clock are in memory only: a task
 * starting on stored state reads them again from {@code gradients} ({@link #restoreGradient}).
 *
 * <ul>
 *   <li>BSP: a clock is applied once every live worker's gradient for it is in (during the first session timeout
 *   after a shard's first gradient, once every expected worker's is in), summed in worker order; {@code minClock} is
 *   the next clock.</li>
 *   <li>SSP and ASP: each gradient is applied on arrival, divided by the global batch (so the updates of one clock's
 *   gradients add up to one BSP step); {@code minClock} is the smallest clock among live workers. Workers enforce
 *   the staleness bound s on themselves by waiting.</li>
 *   <li>All: a gradient whose base version lags the shard by more than {@link SyncPolicy#versionBound()} is
 *   {@code STALE}; one of a clock already applied or buffered for its worker is {@code DUPLICATE}; one from a worker
 *   id outside the job is {@code UNKNOWN_WORKER}; one whose clock is beyond {@link SyncPolicy#aheadBound()} of the
 *   shard's {@code minClock} is {@code CLOCK_AHEAD}.</li>
 * </ul>
 * Time is record time, so a replay of the same records decides the same way. Liveness is judged by the shard's
 * heartbeat clock, the newest membership timestamp it has read, and not by stream time: after an outage the
 * {@code gradients} partition can run far ahead of the heartbeats still coming through the membership fan-out, and
 * stream time would then find every worker but the first sender silent and apply a BSP clock without them. Every
 * version says the job's model kind and tensor layout, and whether it is the job's final one ({@link
 * HotShard#finished}); when an event makes the end known without a new version, the current version is published
 * again with the mark, so that the compacted {@code model} topic's newest record of the shard says it.
 */
final class ShardEngine {

    private static final Logger log = LoggerFactory.getLogger(ShardEngine.class);

    private final KeyValueStore<String, JobSpec> jobs;
    private final KeyValueStore<String, ShardState> states;
    private final KeyValueStore<String, ShardMembers> members;
    private final KeyValueStore<String, ShardState> snapshots;
    private final KeyValueStore<String, ModelShard> newest;
    private final int snapshotEveryClocks;
    private final AggregatorMetrics metrics;
    private final LineageHistory history;
    private final Map<String, HotShard> shards = new HashMap<>();
    private final ModelDescriptions descriptions = new ModelDescriptions();
    /** The offset of the next record of this task's {@code gradients} partition, or -1 before the first is known. */
    private long gradientPosition = -1;

    /**
     * An engine over the task's stores; a BSP shard's parameters and optimizer state go to {@code snapshots} every
     * {@code snapshotEveryClocks} clocks, and only its progress every clock; {@code newest} holds each shard's newest
     * version for the HTTP endpoints.
     */
    ShardEngine(
            final KeyValueStore<String, JobSpec> jobs,
            final KeyValueStore<String, ShardState> states,
            final KeyValueStore<String, ShardMembers> members,
            final KeyValueStore<String, ShardState> snapshots,
            final KeyValueStore<String, ModelShard> newest,
            final int snapshotEveryClocks,
            final AggregatorMetrics metrics) {
        this(jobs, states, members, snapshots, newest, snapshotEveryClocks, metrics, new LineageHistory());
    }

    /** As the engine above, keeping the lineage of each shard-0 version it publishes in {@code history}. */
    ShardEngine(
            final KeyValueStore<String, JobSpec> jobs,
            final KeyValueStore<String, ShardState> states,
            final KeyValueStore<String, ShardMembers> members,
            final KeyValueStore<String, ShardState> snapshots,
            final KeyValueStore<String, ModelShard> newest,
            final int snapshotEveryClocks,
            final AggregatorMetrics metrics,
            final LineageHistory history) {
        if (snapshotEveryClocks < 1) {
            throw new IllegalArgumentException(
                    "snapshots must be taken every 1 or more clocks, not " + snapshotEveryClocks);
        }
        this.jobs = jobs;
        this.states = states;
        this.members = members;
        this.snapshots = snapshots;
        this.newest = newest;
        this.snapshotEveryClocks = snapshotEveryClocks;
        this.metrics = metrics;
        this.history = history;
    }

    /** What a gradient led to: model versions to publish, or why it was refused. */
    record Outcome(List<ModelShard> published, Optional<Rejection> rejection) {

        static Outcome rejected(final DeadLetterReason reason, final String message) {
            return new Outcome(List.of(), Optional.of(new Rejection(reason, message)));
        }
    }

    /**
     * Decodes every shard of the task's stores into memory; returns the offset from which the task's buffered
     * gradients must be read again (the newest task restore point stored), or -1 when no BSP shard can hold any.
     */
    long load() {
        long from = -1;
        long replayFrom = Long.MAX_VALUE;
        boolean anyBsp = false;
        try (KeyValueIterator<String, ShardState> stored = states.all()) {
            while (stored.hasNext()) {
                final KeyValue<String, ShardState> entry = stored.next();
                final JobSpec spec = jobs.get(entry.key);
                if (spec == null) {
                    continue;
                }
                final HotShard hot = decode(entry.key, spec, entry.value);
                shards.put(entry.key, hot);
                from = Math.max(from, entry.value.getTaskRestoreFromOffset());
                replayFrom = Math.min(replayFrom, hot.oldestReplayOffset());
                anyBsp |= hot.waitsForBarrier();
            }
        }
        return anyBsp ? Math.max(0, Math.min(from, replayFrom)) : -1;
    }

    /** A stored shard in memory: in full, or under BSP its progress on the snapshot it names. */
    private HotShard decode(final String key, final JobSpec spec, final ShardState state) {
        final ShardMembership membership = ShardMembership.of(members.get(key));
        if (state.getSnapshotVersion() < 0) {
            return HotShard.stored(key, spec, state, membership);
        }
        final ShardState snapshot = snapshots.get(key);
        if (snapshot == null || snapshot.getVersion() != state.getSnapshotVersion()) {
            throw new IllegalStateException("shard " + key + " is stored at version "
                    + state.getVersion() + " on a snapshot of version "
                    + state.getSnapshotVersion()
                    + ", but shard-snapshot-store holds "
                    + (snapshot == null ? "none" : "version " + snapshot.getVersion()));
        }
        return HotShard.stored(key, spec, state, snapshot, membership);
    }

    /**
     * After a restore read: drops from memory, and returns, the BSP shards that could not be brought from their
     * snapshot to their stored version ({@link HotShard#replayGap}: gradients deleted by retention), their stored
     * state kept; offers every other restored shard's version to the HTTP endpoints.
     */
    List<HotShard> finishRestore() {
        final List<HotShard> stuck = shards.values().stream()
                .filter(hot -> hot.replayGap().isPresent())
                .toList();
        stuck.forEach(hot -> shards.remove(hot.key()));
        for (final HotShard hot : shards.values()) {
            final ModelShard restored = descriptions.describe(hot, hot.restoredModel());
            newest.put(hot.key(), restored);
            if (hot.shard() == 0) {
                history.restart(
                        hot.spec().getJob(),
                        this,
                        restored.getVersion(),
                        hot.lineage().applied());
            }
        }
        return stuck;
    }

    /** The keys of the restored shards that keep a lineage: shard 0 of each topic-mode job. */
    List<String> lineageKeys() {
        return shards.values().stream()
                .filter(hot -> hot.shard() == 0 && TopicSpec.isTopic(hot.spec().getDataset()))
                .map(HotShard::key)
                .sorted()
                .toList();
    }

    /**
     * Restore, before gradients are read again: shard {@code key}'s lineage as {@code newest}, its newest
     * {@code model} record, carries it (the clocks a BSP restore applies again are in it already).
     */
    void restoreLineage(final String key, final ModelShard newest) {
        final HotShard hot = shards.get(key);
        if (hot == null) {
            return;
        }
        hot.lineage().restored(newest.getExamples());
        final long stored = states.get(key).getVersion();
        if (newest.getVersion() != stored) {
            log.warn(
                    "shard {}: its newest model record is of version {}, its stored state of version {}: the lineage "
                            + "restored is that of version {} (is processing.guarantee exactly_once_v2?)",
                    key,
                    newest.getVersion(),
                    stored,
                    newest.getVersion());
        }
    }

    /** The task closes: the lineage history of its shards is no longer this instance's to serve. */
    void close() {
        history.release(this);
    }

    int loadedShards() {
        return shards.size();
    }

    /** The task's {@code gradients} partition continues at {@code offset} (its committed offset, at start). */
    void continueAt(final long offset) {
        gradientPosition = offset;
    }

    /**
     * Restore: a gradient read again from {@code gradients} below the task's committed offset, applied again
     * with its clock or buffered again as {@link HotShard#restoreGradient} says; says whether it was
     * buffered. Nothing is published or dead-lettered: that happened when it was first read.
     */
    boolean restoreGradient(final String key, final GradientShard gradient, final long offset, final long timestamp) {
        final HotShard hot = shards.get(key);
        return hot != null && hot.restoreGradient(gradient, offset, timestamp);
    }

    /** Starts (or, for a resubmitted job, restarts) shard {@code key} of {@code spec}; returns version 0. */
    List<ModelShard> startJob(final String key, final JobSpec spec, final long now) {
        final HotShard known = shards.get(key);
        if (known != null && known.spec().getCreatedAt().equals(spec.getCreatedAt())) {
            return List.of();
        }
        if (known != null) {
            log.warn(
                    "job {} resubmitted (created {} after {}): shard {} restarts from its initial parameters",
                    spec.getJob(),
                    spec.getCreatedAt(),
                    known.spec().getCreatedAt(),
                    known.shard());
        }
        final ShardMembership membership = known != null ? known.members() : ShardMembership.of(members.get(key));
        final HotShard hot = HotShard.initial(key, spec, shardOf(key), membership);
        jobs.put(key, spec);
        shards.put(key, hot);
        descriptions.forget(key);
        return List.of(publish(hot, now));
    }

    /**
     * Forgets shard {@code key} of a deleted job: its decoded shard with its buffered gradients and members,
     * and its entries in every shard store; says whether it held any.
     */
    boolean deleteJob(final String key) {
        final HotShard dropped = shards.remove(key);
        descriptions.forget(key);
        if (dropped != null && dropped.shard() == 0) {
            history.forget(dropped.spec().getJob());
        }
        final boolean held = dropped != null | jobs.get(key) != null | states.get(key) != null;
        jobs.delete(key);
        states.delete(key);
        members.delete(key);
        snapshots.delete(key);
        newest.delete(key);
        return held;
    }

    /**
     * Records a worker joining, beating or leaving. The record's timestamp advances the shard's heartbeat clock, and
     * workers silent for a session timeout by that clock leave the live set; a departure may complete a BSP clock.
     * A departure no worker can have sent ({@link MemberChecks#departureProblem}) is refused, {@code STALE}.
     */
    Outcome memberEvent(final String key, final WorkerStatus status, final long timestamp) {
        final HotShard hot = shards.get(key);
        if (hot == null) {
            final ShardMembership membership = ShardMembership.of(members.get(key));
            membership.membershipEvent(status, timestamp);
            members.put(key, membership.toAvro());
            return new Outcome(List.of(), Optional.empty());
        }
        final String problem = hot.memberProblem(status);
        if (problem != null) {
            return Outcome.rejected(DeadLetterReason.STALE, problem);
        }
        final boolean wasFinished = hot.finished();
        final Set<String> gone = hot.memberEvent(status, timestamp);
        if (!gone.isEmpty()) {
            log.warn(
                    "job {}: worker(s) {} silent for over {} ms, no longer live at shard {}",
                    hot.spec().getJob(),
                    gone,
                    hot.spec().getSessionTimeoutMs(),
                    hot.shard());
        }
        members.put(key, hot.membersAvro());
        if (hot.abandonedSinceSnapshot()) {
            // every worker has left: a snapshot now, so that a finished job's clocks are never re-read
            snapshot(hot, hot.packedParams());
            store(hot, null);
        }
        return new Outcome(markFinal(hot, wasFinished, progress(hot, timestamp), timestamp), Optional.empty());
    }

    /**
     * Shard 0 keeps the orchestrator's plan (batch shares and compute threads): the commands of one plan version (one
     * per worker) are gathered and, once every worker the plan names has its command, the plan is in force and rides
     * with every model version published from then on. Nothing is published here: under BSP the next version, the one
     * that starts the next clock, is the first to carry it, for every worker alike. A command out of step or a plan
     * that is not valid is refused ({@link ShardPlan#gather}: {@code INVALID_COMMAND}).
     */
    Outcome planEvent(final String key, final ResourceCommand command, final long now) {
        final HotShard hot = shards.get(key);
        final ShardPlan.Gathered gathered = hot == null ? ShardPlan.NONE.unchanged() : hot.acceptCommand(command);
        if (gathered.changed()) {
            store(hot, null);
        }
        return new Outcome(List.of(), gathered.rejection());
    }

    /** Takes one decoded gradient for shard {@code key}, read at {@code offset} of the task's {@code gradients} partition. */
    Outcome gradient(final String key, final GradientShard gradient, final long offset, final long now) {
        gradientPosition = Math.max(gradientPosition, offset + 1);
        final HotShard hot = shards.get(key);
        if (hot == null) {
            return Outcome.rejected(
                    DeadLetterReason.UNKNOWN_JOB,
                    "no job '" + gradient.getJob() + "' with shard " + gradient.getShard() + " is known");
        }
        final boolean wasFinished = hot.finished();
        final Admission admission = hot.admit(gradient);
        if (admission.refused()) {
            if (admission.changed()) {
                store(hot, null);
            }
            return new Outcome(markFinal(hot, wasFinished, List.of(), now), Optional.of(admission.rejection()));
        }
        metrics.staleness(Math.max(0, admission.lag()));
        if (hot.noteSenders(gradient, now)) {
            members.put(key, hot.membersAvro());
        }
        if (!hot.waitsForBarrier()) {
            hot.applyOnArrival(gradient, admission.values(), now);
            metrics.applied(GradientChecks.workersOf(gradient).size());
            return new Outcome(List.of(publish(hot, now)), Optional.empty());
        }
        final boolean firstGradient = hot.buffer(gradient, admission.values(), offset, now);
        final List<ModelShard> published = progress(hot, now);
        if (firstGradient && published.isEmpty()) {
            store(hot, null);
        }
        return new Outcome(markFinal(hot, wasFinished, published, now), Optional.empty());
    }

    /** {@code published}, and the current version again marked final if the event made the job's end known without it. */
    private List<ModelShard> markFinal(
            final HotShard hot, final boolean wasFinished, final List<ModelShard> published, final long now) {
        if (wasFinished
                || !hot.finished()
                || !published.isEmpty() && published.get(published.size() - 1).getFinalVersion()) {
            return published;
        }
        final List<ModelShard> withFinal = new ArrayList<>(published);
        withFinal.add(publish(hot, now));
        return withFinal;
    }

    /** BSP: applies every complete clock. SSP/ASP: republishes when the live set moved {@code minClock}. */
    private List<ModelShard> progress(final HotShard hot, final long now) {
        if (!hot.waitsForBarrier()) {
            return hot.advanceMinClock(now) ? List.of(publish(hot, now)) : List.of();
        }
        final List<ModelShard> published = new ArrayList<>();
        for (int applied = hot.applyNextClock(now); applied > 0; applied = hot.applyNextClock(now)) {
            metrics.applied(applied);
            published.add(publish(hot, now));
        }
        return published;
    }

    /**
     * Stores the shard and returns the version to publish. Under BSP the parameters and optimizer state
     * go to {@code shard-snapshot-store} only for version 0, every {@code snapshotEveryClocks} versions and
     * once the job's workers have all left; in between, the stored progress names the gradients applied
     * since the snapshot (a restore applies them again), so that a round writes its model and a small
     * record instead of the parameters and the optimizer's moments again.
     */
    private ModelShard publish(final HotShard hot, final long now) {
        final ByteBuffer packed = hot.packedParams();
        if (hot.snapshotDue(snapshotEveryClocks)) {
            snapshot(hot, packed);
        }
        store(hot, packed);
        final ModelShard model = descriptions.describe(hot, hot.toModel(packed, Instant.ofEpochMilli(now)));
        newest.put(hot.key(), model);
        if (hot.shard() == 0) {
            history.published(
                    hot.spec().getJob(),
                    this,
                    model.getVersion(),
                    hot.lineage().takeAdded(),
                    hot.lineage().applied());
        }
        return model;
    }

    private void snapshot(final HotShard hot, final ByteBuffer packedParams) {
        snapshots.put(hot.key(), hot.snapshot(packedParams));
    }

    /**
     * Writes the shard to its store with where a restore must read gradients again from: for this shard, its oldest
     * buffered gradient; for the task, the oldest of any shard's buffered gradients and of the gradients applied since
     * a snapshot; else the position. Under BSP, progress only ({@code packedParams} may then be null).
     */
    private void store(final HotShard hot, final ByteBuffer packedParams) {
        if (hot.lacksSnapshot()) {
            snapshot(hot, packedParams != null ? packedParams : hot.packedParams());
        }
        long taskOldest = Long.MAX_VALUE;
        for (final HotShard other : shards.values()) {
            final long oldest = other.oldestPendingOffset();
            if (oldest >= 0) {
                taskOldest = Math.min(taskOldest, oldest);
            }
            taskOldest = Math.min(taskOldest, other.oldestReplayOffset());
        }
        final long oldest = hot.oldestPendingOffset();
        final long pendingFrom = oldest >= 0 ? oldest : gradientPosition;
        final long taskFrom = taskOldest != Long.MAX_VALUE ? taskOldest : gradientPosition;
        states.put(hot.key(), hot.toStored(packedParams, pendingFrom, taskFrom));
    }

    static int shardOf(final String key) {
        return Integer.parseInt(key.substring(key.lastIndexOf('/') + 1));
    }
}
