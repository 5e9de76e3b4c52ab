package io.paramhub.topology.aggregator;

import io.paramhub.avro.ShardMembers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The workers of a job as one shard sees them, in memory: when each live worker was last seen, every
 * worker ever heard from, and the shard's heartbeat clock (the newest membership timestamp it has
 * read), by which it judges liveness. Stored as {@link ShardMembers} in {@code shard-member-store}.
 */
final class ShardMembership {

    private final Map<String, Long> lastSeen;
    private final Set<String> everSeen;
    private long heartbeatTime;

    private ShardMembership(final Map<String, Long> lastSeen, final Set<String> everSeen, final long heartbeatTime) {
        this.lastSeen = lastSeen;
        this.everSeen = everSeen;
        this.heartbeatTime = heartbeatTime;
    }

    static ShardMembership empty() {
        return new ShardMembership(new HashMap<>(), new TreeSet<>(), 0);
    }

    static ShardMembership of(final ShardMembers stored) {
        return stored == null
                ? empty()
                : new ShardMembership(
                        new HashMap<>(stored.getLastSeen()),
                        new TreeSet<>(stored.getEverSeen()),
                        stored.getHeartbeatTime());
    }

    ShardMembers toAvro() {
        return new ShardMembers(new HashMap<>(lastSeen), new ArrayList<>(everSeen), heartbeatTime);
    }

    /** A join, heartbeat or departure read from {@code membership}: it also advances the heartbeat clock. */
    void membershipEvent(final String worker, final long timestamp, final boolean left) {
        seen(worker, timestamp, left);
        heartbeatTime = Math.max(heartbeatTime, timestamp);
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

    /**
     * A gradient of {@code worker} at {@code now} shows it is alive; says whether that moved its last-seen time by
     * a tenth of {@code sessionTimeoutMs} (the store is written then, not on every gradient).
     */
    boolean noteSender(final String worker, final long now, final long sessionTimeoutMs) {
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

    /** Every worker heard from, with {@code also} added. */
    Set<String> everSeenWith(final Set<String> also) {
        final Set<String> all = new TreeSet<>(everSeen);
        all.addAll(also);
        return all;
    }
}
