package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ShardMembers;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which workers of a job a shard counts as live: those seen within the session timeout before the
 * shard's heartbeat clock ({@link ShardMembers#getHeartbeatTime()}).
 */
final class Liveness {

    private Liveness() {
    }

    static Set<String> live(final ShardMembers members, final JobSpec spec) {
        final Set<String> live = new TreeSet<>();
        if (members == null) {
            return live;
        }
        members.getLastSeen().forEach((worker, seen) -> {
            if (seen >= members.getHeartbeatTime() - spec.getSessionTimeoutMs()) {
                live.add(worker);
            }
        });
        return live;
    }
}
