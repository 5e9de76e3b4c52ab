package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ShardMembers;
import java.util.Set;
import java.util.TreeSet;

/** Which workers of a job a shard counts as live at a given stream time: seen within the session timeout. */
final class Liveness {

    private Liveness() {
    }

    static Set<String> live(final ShardMembers members, final JobSpec spec, final long now) {
        final Set<String> live = new TreeSet<>();
        if (members == null) {
            return live;
        }
        members.getLastSeen().forEach((worker, seen) -> {
            if (seen >= now - spec.getSessionTimeoutMs()) {
                live.add(worker);
            }
        });
        return live;
    }
}
