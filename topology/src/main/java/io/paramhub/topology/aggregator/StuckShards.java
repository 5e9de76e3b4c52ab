package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards of one task that a restore could not rebuild ({@link ShardEngine#finishRestore}: gradients it had to
 * apply again were deleted by retention), each with why. None is served, so the task serves its other shards
 * instead of failing: each gradient for one is refused with why ({@code OTHER}, to {@code dead-letters}, where
 * {@code jobs status} counts it), its job's spec read again is passed over, until the job is deleted or
 * resubmitted (another {@code createdAt}), which starts the shard afresh. Counted by the gauge
 * {@code paramhub.aggregator.shards.stuck}. Mutable; owned by one {@link ShardTask}. Reads and writes no topic.
 */
final class StuckShards {

    private static final Logger log = LoggerFactory.getLogger(StuckShards.class);

    private record Stuck(Instant createdAt, String why) {}

    private final Map<String, Stuck> stuck = new HashMap<>();
    private final AggregatorMetrics metrics;

    StuckShards(final AggregatorMetrics metrics) {
        this.metrics = metrics;
    }

    /** {@code hot}, which {@link HotShard#replayGap} says could not be rebuilt, is stuck. */
    void add(final HotShard hot) {
        final String why = hot.replayGap().orElseThrow() + "; the shard is stuck until job "
                + hot.spec().getJob() + " is deleted or resubmitted";
        stuck.put(hot.key(), new Stuck(hot.spec().getCreatedAt(), why));
        metrics.stuck(hot.key());
        log.error("{}; the task's other shards are served", why);
    }

    /** Why a gradient for shard {@code key} is refused, when the shard is stuck. */
    Optional<Rejection> refusal(final String key) {
        return Optional.ofNullable(stuck.get(key)).map(shard -> new Rejection(DeadLetterReason.OTHER, shard.why()));
    }

    /**
     * Whether {@code spec}, read for shard {@code key}, is to be passed over: the stuck shard's own job again. A
     * resubmitted job (another {@code createdAt}) frees the shard, to start afresh.
     */
    boolean passOver(final String key, final JobSpec spec) {
        final Stuck shard = stuck.get(key);
        if (shard == null) {
            return false;
        }
        if (shard.createdAt().equals(spec.getCreatedAt())) {
            return true;
        }
        forget(key);
        return false;
    }

    /** Shard {@code key} is no longer stuck: its job was deleted or resubmitted. */
    void forget(final String key) {
        if (stuck.remove(key) != null) {
            metrics.forget(key);
        }
    }
}
