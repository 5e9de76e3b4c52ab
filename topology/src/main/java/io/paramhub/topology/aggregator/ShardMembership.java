package io.paramhub.topology.aggregator;

import io.paramhub.avro.Departure;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The workers of a job as one shard sees them, in memory: when each live worker was last seen, every
 * worker ever heard from, those that left (with the clocks they sent, and whether finished), and the shard's
 * heartbeat clock (the newest membership timestamp it has read), by which it judges liveness. Stored
 * as {@link ShardMembers} in {@code shard-member-store}.
 */
final class ShardMembership {

    private final Map<String, Long> lastSeen;
    private final Set<String> everSeen;
    /** Per worker whose last membership record was a finished LEFT, the clock count it announced. */
    private final Map<String, Long> finished;
    /** Per worker whose last membership record was a LEFT, finished or not: the clock it announced, and when. */
    private final Map<String, Departure> departures;

    private long heartbeatTime;

    private ShardMembership(
            final Map<String, Long> lastSeen,
            final Set<String> everSeen,
            final Map<String, Long> finished,
            final Map<String, Departure> departures,
            final long heartbeatTime) {
        this.lastSeen = lastSeen;
        this.everSeen = everSeen;
        this.finished = finished;
        this.departures = departures;
        this.heartbeatTime = heartbeatTime;
    }

    static ShardMembership empty() {
        return new ShardMembership(new HashMap<>(), new TreeSet<>(), new HashMap<>(), new HashMap<>(), 0);
    }

    static ShardMembership of(final ShardMembers stored) {
        return stored == null
                ? empty()
                : new ShardMembership(
                        new HashMap<>(stored.getLastSeen()),
                        new TreeSet<>(stored.getEverSeen()),
                        new HashMap<>(stored.getFinished()),
                        new HashMap<>(stored.getDepartures()),
                        stored.getHeartbeatTime());
    }

    ShardMembers toAvro() {
        return new ShardMembers(
                new HashMap<>(lastSeen),
                new ArrayList<>(everSeen),
                heartbeatTime,
                new HashMap<>(finished),
                new HashMap<>(departures));
    }

    /**
     * A join, heartbeat or departure read from {@code membership} at {@code timestamp}: it also advances the
     * heartbeat clock. A departure is kept with its clock count (and a finished one apart); any other record of
     * the worker drops it.
     */
    void membershipEvent(final WorkerStatus status, final long timestamp) {
        final boolean left = status.getState() == WorkerState.LEFT;
        seen(status.getWorker(), timestamp, left);
        if (left) {
            departures.put(status.getWorker(), new Departure(status.getClock(), timestamp));
        } else {
            departures.remove(status.getWorker());
        }
        if (left && status.getFinished()) {
            finished.put(status.getWorker(), status.getClock());
        } else {
            finished.remove(status.getWorker());
        }
        heartbeatTime = Math.max(heartbeatTime, timestamp);
    }

    /**
     * BSP: the workers whose gradient of {@code clock} its barrier waits for: the live ones, and those that left at
     * a clock above it within {@code sessionTimeoutMs} before the heartbeat clock. Each of those sent its gradient
     * of {@code clock} before its LEFT, on another topic, so that a LEFT read first must not close the clock
     * without it.
     */
    Set<String> owing(final long clock, final long sessionTimeoutMs) {
        final Set<String> owing = live(sessionTimeoutMs);
        departures.forEach((worker, departure) -> {
            if (clock < departure.getClock() && departure.getAt() >= heartbeatTime - sessionTimeoutMs) {
                owing.add(worker);
            }
        });
        return owing;
    }

    /**
     * Whether the job is over for this shard: some worker was heard from, every one has left finished, and each
     * that {@code contributes} has had all the clocks it announced applied or passed ({@code appliedClocks}). A
     * worker's last gradients may be read after its departure (another topic): they are waited for, not its
     * liveness.
     */
    boolean allFinished(final ToLongFunction<String> appliedClocks, final Predicate<String> contributes) {
        if (everSeen.isEmpty() || !finished.keySet().containsAll(everSeen)) {
            return false;
        }
        return finished.entrySet().stream()
                .allMatch(worker -> !contributes.test(worker.getKey())
                        || appliedClocks.applyAsLong(worker.getKey()) >= worker.getValue());
    }

    /** A worker heard from otherwise (a gradient): the heartbeat clock stays. */
    void seen(final String worker, final long timestamp, final boolean left) {
        if (left) {
            lastSeen.remove(worker);
        } else {
            lastSeen.merge(worker, timestamp, Math::max);
        }
        everSeen.add(worker);
    }

    /** {@link #noteSender} for each of {@code workers}, whose gradients one record holds; says whether any moved. */
    boolean noteSenders(final List<String> workers, final long clock, final long now, final long sessionTimeoutMs) {
        boolean moved = false;
        for (final String worker : workers) {
            moved |= noteSender(worker, clock, now, sessionTimeoutMs);
        }
        return moved;
    }

    /**
     * A gradient of {@code worker} for {@code clock} at {@code now} shows it is alive, unless it is one the worker
     * sent before its LEFT; says whether that moved its last-seen time by a tenth of {@code sessionTimeoutMs} (the
     * store is written then, not on every gradient).
     */
    boolean noteSender(final String worker, final long clock, final long now, final long sessionTimeoutMs) {
        final Departure departure = departures.get(worker);
        if (departure != null && clock < departure.getClock()) {
            return false;
        }
        final Long seen = lastSeen.get(worker);
        if (seen == null || now - seen > sessionTimeoutMs / 10) {
            seen(worker, now, false);
            return true;
        }
        return false;
    }

    /** The workers seen within {@code sessionTimeoutMs} before the heartbeat clock, in id order. */
    Set<String> live(final long sessionTimeoutMs) {
        final Set<String> live = new TreeSet<>();
        lastSeen.forEach((worker, seen) -> {
            if (seen >= heartbeatTime - sessionTimeoutMs) {
                live.add(worker);
            }
        });
        return live;
    }

    /** Drops the workers no longer live from the live set; returns those dropped. */
    Set<String> expire(final long sessionTimeoutMs) {
        final Set<String> live = live(sessionTimeoutMs);
        final Set<String> gone = new TreeSet<>(lastSeen.keySet());
        gone.removeAll(live);
        lastSeen.keySet().retainAll(live);
        return gone;
    }

    /** How many workers this shard has heard from. */
    int heardFrom() {
        return everSeen.size();
    }

    /** Every worker heard from, with {@code also} added. */
    Set<String> everSeenWith(final Set<String> also) {
        final Set<String> all = new TreeSet<>(everSeen);
        all.addAll(also);
        return all;
    }
}
