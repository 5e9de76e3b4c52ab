package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.Optimizer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parameter server of the shards one task owns, over the task's stores: starts a shard on its
 * job, tracks its live workers, and applies gradients as the job's sync mode says.
 *
 * <ul>
 *   <li>BSP: a clock is applied once every live worker's gradient for it is in (during the first
 *   session timeout after a shard's first gradient, once every expected worker's is in), summed in
 *   worker order; {@code minClock} is the next clock.</li>
 *   <li>SSP and ASP: each gradient is applied on arrival, divided by the global batch (so the
 *   updates of one clock's gradients add up to one BSP step); {@code minClock} is the smallest clock
 *   among live workers. Workers enforce the staleness bound s on themselves by waiting.</li>
 *   <li>All: a gradient whose base version lags the shard by more than {@link StalenessBound} is
 *   {@code STALE}; one of a clock already applied or buffered for its worker is {@code DUPLICATE}.</li>
 * </ul>
 * Time is record time, so a replay of the same records decides the same way. Liveness is judged by
 * the shard's heartbeat clock, the newest membership timestamp it has read, and not by stream time:
 * after an outage the {@code gradients} partition can run far ahead of the heartbeats still coming
 * through the membership fan-out, and stream time would then find every worker but the first
 * sender silent and apply a BSP clock without them.
 */
final class ShardEngine {

    private static final Logger log = LoggerFactory.getLogger(ShardEngine.class);

    private final KeyValueStore<String, JobSpec> jobs;
    private final KeyValueStore<String, ShardState> states;
    private final KeyValueStore<String, ShardMembers> members;
    private final PendingGradients pending;
    private final AggregatorMetrics metrics;
    private final Map<String, Optimizer> optimizers = new HashMap<>();

    ShardEngine(final KeyValueStore<String, JobSpec> jobs, final KeyValueStore<String, ShardState> states,
                final KeyValueStore<String, ShardMembers> members, final PendingGradients pending,
                final AggregatorMetrics metrics) {
        this.jobs = jobs;
        this.states = states;
        this.members = members;
        this.pending = pending;
        this.metrics = metrics;
    }

    /** What a gradient led to: model versions to publish, or why it was refused. */
    record Outcome(List<ModelShard> published, Optional<Rejection> rejection) {

        static Outcome rejected(final DeadLetterReason reason, final String message) {
            return new Outcome(List.of(), Optional.of(new Rejection(reason, message)));
        }
    }

    /** Starts (or, for a resubmitted job, restarts) shard {@code key} of {@code spec}; returns version 0. */
    List<ModelShard> startJob(final String key, final JobSpec spec, final long now) {
        final int shard = shardOf(key);
        final JobSpec known = jobs.get(key);
        if (known != null && known.getCreatedAt().equals(spec.getCreatedAt())) {
            return List.of();
        }
        if (known != null) {
            log.warn("job {} resubmitted (created {} after {}): shard {} restarts from its initial parameters",
                spec.getJob(), spec.getCreatedAt(), known.getCreatedAt(), shard);
            pending.deleteShard(spec.getJob(), shard);
        }
        final ShardState initial = ShardUpdate.initial(spec, shard);
        jobs.put(key, spec);
        states.put(key, initial);
        return publish(spec, initial, now);
    }

    /**
     * Records a worker joining, beating or leaving. The record's timestamp advances the shard's
     * heartbeat clock, and workers silent for a session timeout by that clock leave the live set; a
     * departure may complete a BSP clock.
     */
    List<ModelShard> memberEvent(final String key, final WorkerStatus status, final long timestamp) {
        recordSeen(key, status.getWorker(), timestamp, status.getState() == WorkerState.LEFT, true);
        expireSilent(key);
        return progress(key, timestamp);
    }

    /**
     * A gradient shows its worker is alive; the store is written only when that moves the worker's
     * last-seen time by a tenth of the session timeout, not on every gradient.
     */
    private void noteGradientSender(final String key, final JobSpec spec, final String worker, final long now) {
        final ShardMembers current = members.get(key);
        final Long seen = current == null ? null : current.getLastSeen().get(worker);
        if (seen == null || now - seen > spec.getSessionTimeoutMs() / 10) {
            recordSeen(key, worker, now, false, false);
        }
    }

    private void recordSeen(final String key, final String worker, final long timestamp, final boolean left,
                            final boolean fromMembership) {
        final ShardMembers current = members.get(key);
        final long heartbeatTime = current == null ? 0 : current.getHeartbeatTime();
        final Map<String, Long> seen = current == null ? new HashMap<>() : new HashMap<>(current.getLastSeen());
        final Set<String> everSeen = current == null ? new TreeSet<>() : new TreeSet<>(current.getEverSeen());
        if (left) {
            seen.remove(worker);
        } else {
            seen.merge(worker, timestamp, Math::max);
        }
        everSeen.add(worker);
        members.put(key, new ShardMembers(seen, new ArrayList<>(everSeen),
            fromMembership ? Math.max(heartbeatTime, timestamp) : heartbeatTime));
    }

    /**
     * Shard 0 keeps the orchestrator's plan (batch shares and compute threads): the commands of one
     * epoch (one per worker) are gathered
     * and, once every worker the plan names has its command, the plan is in force and rides with every
     * model version published from then on. Nothing is published here: under BSP the next version,
     * the one that starts the next clock, is the first to carry it, for every worker alike.
     */
    List<ModelShard> planEvent(final String key, final ResourceCommand command, final long now) {
        final ShardState state = states.get(key);
        if (state == null || command.getEpoch() <= state.getPlanEpoch() || command.getEpoch() < state.getPendingEpoch()) {
            return List.of();
        }
        final boolean samePlan = command.getEpoch() == state.getPendingEpoch();
        final Map<String, Double> pendingShares = samePlan ? new HashMap<>(state.getPendingShares()) : new HashMap<>();
        final Map<String, Integer> pendingThreads = samePlan ? new HashMap<>(state.getPendingThreads()) : new HashMap<>();
        pendingShares.put(command.getWorker(), command.getBatchShare());
        pendingThreads.put(command.getWorker(), command.getThreads());
        final ShardState.Builder next = ShardState.newBuilder(state)
            .setPendingEpoch(command.getEpoch())
            .setPendingShares(pendingShares)
            .setPendingThreads(pendingThreads);
        if (pendingShares.keySet().containsAll(command.getSpeeds().keySet())) {
            next.setShares(pendingShares).setThreads(pendingThreads).setPlanEpoch(command.getEpoch())
                .setPendingShares(Map.of()).setPendingThreads(Map.of());
        }
        states.put(key, next.build());
        return List.of();
    }

    /** Takes one decoded gradient for shard {@code key}. */
    Outcome gradient(final String key, final GradientShard gradient, final long now) {
        final JobSpec spec = jobs.get(key);
        ShardState state = states.get(key);
        if (spec == null || state == null) {
            return Outcome.rejected(DeadLetterReason.UNKNOWN_JOB,
                "no job '" + gradient.getJob() + "' with shard " + gradient.getShard() + " is known");
        }
        final Optional<Rejection> invalid = GradientChecks.check(spec, gradient);
        if (invalid.isPresent()) {
            return new Outcome(List.of(), invalid);
        }
        final long appliedClocks = state.getWorkerClocks().getOrDefault(gradient.getWorker(), 0L);
        final boolean buffered = gradient.getClock() >= appliedClocks && pending.contains(gradient);
        if (gradient.getClock() < appliedClocks || buffered) {
            return Outcome.rejected(DeadLetterReason.DUPLICATE, "clock " + gradient.getClock() + " of worker "
                + gradient.getWorker() + " is already " + (buffered ? "buffered" : "applied"));
        }
        final long lag = state.getVersion() - gradient.getBaseVersion();
        final long bound = StalenessBound.of(spec);
        if (lag > bound) {
            // the worker has moved on: count the clock as processed, so it is not waited for
            final Map<String, Long> workerClocks = new HashMap<>(state.getWorkerClocks());
            workerClocks.put(gradient.getWorker(), gradient.getClock() + 1);
            states.put(key, ShardState.newBuilder(state).setWorkerClocks(workerClocks).build());
            return Outcome.rejected(DeadLetterReason.STALE, "computed on version " + gradient.getBaseVersion()
                + " of shard " + gradient.getShard() + ", which is at version " + state.getVersion()
                + ": staleness " + lag + " exceeds the bound " + bound);
        }
        metrics.staleness(Math.max(0, lag));
        noteGradientSender(key, spec, gradient.getWorker(), now);
        if (state.getStartedAt() == 0) {
            state = ShardState.newBuilder(state).setStartedAt(now).build();
            states.put(key, state);
        }
        if (spec.getSyncMode() == SyncMode.BSP) {
            pending.add(gradient);
            return new Outcome(progress(key, now), Optional.empty());
        }
        return new Outcome(applyOnArrival(key, spec, state, gradient, now), Optional.empty());
    }

    /** Drops the workers silent for a session timeout, by the shard's heartbeat clock, from its live set. */
    private void expireSilent(final String key) {
        final JobSpec spec = jobs.get(key);
        final ShardMembers current = members.get(key);
        if (spec == null || current == null) {
            return;
        }
        final Set<String> live = Liveness.live(current, spec);
        if (live.size() < current.getLastSeen().size()) {
            final Map<String, Long> kept = new HashMap<>(current.getLastSeen());
            kept.keySet().retainAll(live);
            log.warn("job {}: worker(s) {} silent for over {} ms, no longer live at shard {}", spec.getJob(),
                difference(current.getLastSeen().keySet(), live), spec.getSessionTimeoutMs(), shardOf(key));
            members.put(key, ShardMembers.newBuilder(current).setLastSeen(kept).build());
        }
    }

    /** BSP: applies every complete clock. SSP/ASP: republishes when the live set moved {@code minClock}. */
    private List<ModelShard> progress(final String key, final long now) {
        final JobSpec spec = jobs.get(key);
        ShardState state = states.get(key);
        if (spec == null || state == null) {
            return List.of();
        }
        final List<ModelShard> published = new ArrayList<>();
        if (spec.getSyncMode() != SyncMode.BSP) {
            final long minClock = minClock(key, spec, state);
            if (minClock > state.getMinClock()) {
                state = ShardState.newBuilder(state).setMinClock(minClock).build();
                states.put(key, state);
                published.addAll(publish(spec, state, now));
            }
            return published;
        }
        while (true) {
            final List<GradientShard> clock = pending.ofClock(spec.getJob(), state.getShard(), state.getNextClock());
            if (!complete(key, spec, state, clock, now)) {
                return published;
            }
            final GradientSum sum = new GradientSum(JobSpecs.layout(spec).length(state.getShard()));
            final Map<String, Long> workerClocks = new HashMap<>(state.getWorkerClocks());
            for (final GradientShard gradient : clock) {
                sum.add(FloatPacking.unpack(gradient.getValues()), gradient.getSampleCount());
                workerClocks.put(gradient.getWorker(), gradient.getClock() + 1);
            }
            final long nextClock = state.getNextClock() + 1;
            state = ShardState.newBuilder(ShardUpdate.apply(state, optimizer(spec), sum.mean(),
                    JobSpecs.schedule(spec).factor(state.getNextClock())))
                .setNextClock(nextClock)
                .setMinClock(nextClock)
                .setWorkerClocks(workerClocks)
                .build();
            metrics.applied(clock.size());
            pending.deleteClock(spec.getJob(), state.getShard(), nextClock - 1);
            states.put(key, state);
            published.addAll(publish(spec, state, now));
        }
    }

    /**
     * Whether a BSP clock can be applied: every live worker's gradient is in and, until every
     * expected worker has been heard from or one session timeout after the shard's first gradient,
     * every expected worker's.
     */
    private boolean complete(final String key, final JobSpec spec, final ShardState state,
                             final List<GradientShard> clock, final long now) {
        if (clock.isEmpty()) {
            return false;
        }
        final Set<String> contributors = new TreeSet<>();
        clock.forEach(gradient -> contributors.add(gradient.getWorker()));
        final ShardMembers known = members.get(key);
        final Set<String> everSeen = new TreeSet<>(contributors);
        if (known != null) {
            everSeen.addAll(known.getEverSeen());
        }
        final boolean startGrace = now < state.getStartedAt() + spec.getSessionTimeoutMs();
        if (startGrace && everSeen.size() < spec.getExpectedWorkers()) {
            return false;
        }
        return contributors.containsAll(Liveness.live(known, spec));
    }

    private List<ModelShard> applyOnArrival(final String key, final JobSpec spec, final ShardState state,
                                            final GradientShard gradient, final long now) {
        final float[] mean = FloatPacking.unpack(gradient.getValues());
        for (int i = 0; i < mean.length; i++) {
            mean[i] = (float) ((double) mean[i] / spec.getGlobalBatch());
        }
        final Map<String, Long> workerClocks = new HashMap<>(state.getWorkerClocks());
        workerClocks.put(gradient.getWorker(), gradient.getClock() + 1);
        ShardState next = ShardState.newBuilder(ShardUpdate.apply(state, optimizer(spec), mean,
                JobSpecs.schedule(spec).factor(gradient.getClock())))
            .setWorkerClocks(workerClocks)
            .build();
        next = ShardState.newBuilder(next).setMinClock(minClock(key, spec, next)).build();
        metrics.applied(1);
        states.put(key, next);
        return publish(spec, next, now);
    }

    /** Smallest next clock among live workers (one not yet heard from at this shard counts at the current minClock); never decreases. */
    private long minClock(final String key, final JobSpec spec, final ShardState state) {
        final Set<String> live = Liveness.live(members.get(key), spec);
        long min = Long.MAX_VALUE;
        for (final String worker : live) {
            min = Math.min(min, state.getWorkerClocks().getOrDefault(worker, state.getMinClock()));
        }
        return min == Long.MAX_VALUE ? state.getMinClock() : Math.max(state.getMinClock(), min);
    }

    private List<ModelShard> publish(final JobSpec spec, final ShardState state, final long now) {
        return List.of(ShardUpdate.published(spec, state, Instant.ofEpochMilli(now)));
    }

    private Optimizer optimizer(final JobSpec spec) {
        final String id = spec.getJob() + "@" + spec.getCreatedAt().toEpochMilli();
        return optimizers.computeIfAbsent(id, ignored -> JobSpecs.optimizer(spec));
    }

    private static Set<String> difference(final Set<String> all, final Set<String> kept) {
        final Set<String> gone = new TreeSet<>(all);
        gone.removeAll(kept);
        return gone;
    }

    static int shardOf(final String key) {
        return Integer.parseInt(key.substring(key.lastIndexOf('/') + 1));
    }
}
