package io.paramhub.topology.sync;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The rules of a job's sync mode (BSP, SSP with staleness s, ASP), for both sides: the worker, which
 * decides when it may start a clock, and the aggregator (the parameter server of each shard), which
 * decides whether a gradient is applied at once, waits for its clock's barrier or is too stale, and when
 * a new model version is due. Built from the job's {@code JobSpec} ({@code syncMode}, {@code staleness},
 * {@code maxStaleness}, {@code expectedWorkers}, {@code sessionTimeoutMs}); it reads and writes no topic.
 *
 * <p>Two bounds, in two units:
 * <ul>
 *   <li>{@link #clockBound()}, in clocks, enforced by the worker on itself: how far it may run ahead of
 *   the slowest live worker, the {@code minClock} of the model it reads. BSP 0 (pipelined BSP d), SSP s, ASP
 *   {@link #UNBOUNDED}. SSP and ASP workers also read their own writes: a worker starts a clock only
 *   once the model includes its own previous clock (not at the clock it joined at, which has none).</li>
 *   <li>{@link #versionBound()}, in shard versions, enforced by the aggregator: a gradient computed on
 *   version v_b reaching a shard at version V is applied while V - v_b is at most the bound, and is
 *   {@code STALE} past it. The job's {@code maxStaleness} when set (0 or more); by default 0 under BSP
 *   (every gradient of clock c is computed on version c; d under pipelined BSP, version c - d), (2s + 2) x
 *   workers under SSP(s), and
 *   {@link #UNBOUNDED} under ASP.</li>
 * </ul>
 *
 * <p>Under BSP the aggregator buffers a clock's gradients until its barrier is passed (every live
 * worker's gradient is in and, during the start grace, every expected worker's), then applies their sum
 * as one version; under SSP and ASP it applies each gradient on arrival, and publishes a version also
 * when the smallest clock among live workers moves, since waiting SSP workers start on it.
 */
public final class SyncPolicy {

    /** A bound that never binds. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    /**
     * Clocks a shard may be behind the newest version its workers have read: those published in one
     * uncommitted transaction (a 100 ms commit interval holds a few dozen rounds of a small model), which a
     * crash rolls back. Generous, so that no honest gradient is refused after a restart.
     */
    public static final long ROLLBACK_CLOCKS = 1_000;

    private final SyncMode mode;
    private final long clockBound;
    private final long versionBound;
    private final int expectedWorkers;
    private final long sessionTimeoutMs;
    private final int pipelineDepth;

    private SyncPolicy(
            final SyncMode mode,
            final long clockBound,
            final long versionBound,
            final int expectedWorkers,
            final long sessionTimeoutMs,
            final int pipelineDepth) {
        this.mode = mode;
        this.clockBound = clockBound;
        this.versionBound = versionBound;
        this.expectedWorkers = expectedWorkers;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.pipelineDepth = pipelineDepth;
    }

    /**
     * This policy with a barrier that expects {@code workers} workers in its start grace: a hybrid job's
     * shard, whose barrier waits for the workers of the one pipeline stage that owns it.
     */
    public SyncPolicy withExpectedWorkers(final int workers) {
        return new SyncPolicy(mode, clockBound, versionBound, workers, sessionTimeoutMs, pipelineDepth);
    }

    /** The policy of {@code spec}'s sync mode, staleness and server bound. */
    public static SyncPolicy of(final JobSpec spec) {
        final SyncMode mode = spec.getSyncMode();
        final int depth = mode == SyncMode.BSP ? Math.max(0, spec.getPipelineDepth()) : 0;
        final long clockBound = switch (mode) {
            case BSP -> depth;
            case SSP -> spec.getStaleness();
            case ASP -> UNBOUNDED;
        };
        final long versionBound;
        if (spec.getMaxStaleness() >= 0) {
            versionBound = spec.getMaxStaleness();
        } else {
            versionBound = switch (mode) {
                case BSP -> depth;
                case SSP -> (2L * spec.getStaleness() + 2) * spec.getExpectedWorkers();
                case ASP -> UNBOUNDED;
            };
        }
        return new SyncPolicy(
                mode, clockBound, versionBound, spec.getExpectedWorkers(), spec.getSessionTimeoutMs(), depth);
    }

    /** Pipelined BSP's depth d (clock c computed on version c - d); 0 for plain BSP, SSP and ASP. */
    public int pipelineDepth() {
        return pipelineDepth;
    }

    /**
     * Worker: the model version {@code clock} must be computed on, exactly, or -1 for the newest it has.
     * Pipelined BSP: max(0, clock - d), the same for every worker, so the run is deterministic although a
     * newer version may already be in; -1 otherwise (under plain BSP the newest is version {@code clock}).
     */
    public long pinnedVersion(final long clock) {
        return pipelineDepth > 0 ? Math.max(0, clock - pipelineDepth) : -1;
    }

    public SyncMode mode() {
        return mode;
    }

    /** Clocks a worker may run ahead of the model's {@code minClock}: BSP 0 (pipelined BSP d), SSP s, ASP {@link #UNBOUNDED}. */
    public long clockBound() {
        return clockBound;
    }

    /**
     * Shard versions a gradient's base version may lag the shard's and still be applied: the job's
     * {@code maxStaleness}, or BSP 0 (pipelined BSP d), SSP (2s + 2) x workers, ASP {@link #UNBOUNDED}.
     */
    public long versionBound() {
        return versionBound;
    }

    /**
     * Worker: the smallest {@code minClock} (over every shard) on which it may start {@code clock}:
     * {@code clock} minus the clock bound, {@link Long#MIN_VALUE} (no wait) under ASP.
     */
    public long minClockToStart(final long clock) {
        return clockBound == UNBOUNDED ? Long.MIN_VALUE : clock - clockBound;
    }

    /**
     * How many of its own clocks the model must include before a worker that joined at
     * {@code firstClock} starts {@code clock}: under SSP and ASP every clock before {@code clock} (it
     * reads its own writes), except at the clock it joined at; under BSP none beyond the barrier.
     */
    public long ownClocksToStart(final long clock, final long firstClock) {
        return mode != SyncMode.BSP && clock > firstClock ? clock : 0;
    }

    /**
     * Whether a worker that joined at {@code firstClock} may start {@code clock} on a complete model
     * whose smallest {@code minClock} is {@code minClock} and which includes {@code ownClocks} of its
     * clocks (every shard).
     */
    public boolean mayStart(final long clock, final long firstClock, final long minClock, final long ownClocks) {
        return minClock >= minClockToStart(clock) && ownClocks >= ownClocksToStart(clock, firstClock);
    }

    /**
     * Whether workers cut the global batch by the orchestrator's planned shares: only under BSP, where
     * every worker reads the same version before a clock; SSP and ASP workers, at different clocks, keep
     * round-robin shares (planned threads apply in every mode).
     */
    public boolean followsPlannedShares() {
        return mode == SyncMode.BSP;
    }

    /**
     * Aggregator, BSP: a shard buffers each gradient until its clock's barrier is passed ({@link #barrierPassed})
     * and applies the clock's sum as one version. SSP and ASP: false, each gradient is applied on
     * arrival.
     */
    public boolean waitsForBarrier() {
        return mode == SyncMode.BSP;
    }

    /**
     * Aggregator: the clocks a gradient may be ahead of its shard's {@code minClock} and still be taken: the
     * {@link #clockBound()} (a worker starts clock c only once every shard's {@code minClock} is at least
     * c minus it, and a shard's {@code minClock} never falls), plus {@link #ROLLBACK_CLOCKS}, since workers
     * read versions before they commit and a shard restarted after a crash is back at its last commit
     * until it has read its gradients again. {@link #UNBOUNDED} under ASP, where clocks bind nothing.
     */
    public long aheadBound() {
        return clockBound == UNBOUNDED ? UNBOUNDED : clockBound + ROLLBACK_CLOCKS;
    }

    /**
     * Whether a gradient of {@code clock} is beyond the {@link #aheadBound()} of a shard whose {@code minClock}
     * is {@code shardMinClock}: no worker of the job can have computed it, and under BSP it would wait for a
     * barrier forever.
     */
    public boolean tooFarAhead(final long shardMinClock, final long clock) {
        return aheadBound() != UNBOUNDED && clock > shardMinClock + aheadBound();
    }

    /** Whether a gradient computed on {@code baseVersion} is too stale for a shard at {@code shardVersion}. */
    public boolean tooStale(final long shardVersion, final long baseVersion) {
        return shardVersion - baseVersion > versionBound;
    }

    /**
     * BSP: whether a clock whose gradients are in from {@code contributors} can be applied: some are in,
     * every live worker's is, and, in the start grace (until one session timeout after the shard's first
     * gradient, at {@code firstGradientAt}), every expected worker has been heard from. {@code heardFrom}
     * (workers ever heard from, contributors included) is asked only in the start grace, {@code live}
     * only past it.
     */
    public boolean barrierPassed(
            final Set<String> contributors,
            final long now,
            final long firstGradientAt,
            final IntSupplier heardFrom,
            final Supplier<Set<String>> live) {
        if (contributors.isEmpty()) {
            return false;
        }
        if (inStartGrace(now, firstGradientAt, heardFrom)) {
            return false;
        }
        return contributors.containsAll(live.get());
    }

    /**
     * Aggregator: whether a shard is in its start grace at {@code now}: within one session timeout after its first
     * gradient (at {@code firstGradientAt}), with fewer than the expected workers heard from ({@code heardFrom}, asked
     * only within that timeout). In it a BSP clock waits for every expected worker, and an SSP or ASP shard's
     * {@code minClock} stays where it is, since a worker not yet heard from starts there.
     */
    public boolean inStartGrace(final long now, final long firstGradientAt, final IntSupplier heardFrom) {
        return firstGradientAt > 0
                && now < firstGradientAt + sessionTimeoutMs
                && heardFrom.getAsInt() < expectedWorkers;
    }

    /**
     * SSP and ASP: whether a shard owes a new version because the smallest next clock among its live
     * workers rose above the {@code minClock} it last published (a worker left, or the slowest moved on),
     * so that workers waiting on it may start. Under BSP a version is due only when a barrier is passed.
     */
    public boolean versionDue(final long liveMinClock, final long publishedMinClock) {
        return !waitsForBarrier() && liveMinClock > publishedMinClock;
    }

    @Override
    public String toString() {
        return mode + (mode == SyncMode.SSP ? "(" + clockBound + ")" : "")
                + (pipelineDepth > 0 ? " pipelined " + pipelineDepth : "") + ", version bound "
                + (versionBound == UNBOUNDED ? "none" : versionBound);
    }
}
