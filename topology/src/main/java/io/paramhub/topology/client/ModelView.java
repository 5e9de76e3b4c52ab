package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.util.Map;

/** The newest version seen of each shard of one job's model, assembled into one vector on demand. */
public final class ModelView {

    private final String job;
    private final ModelShard[] shards;

    public ModelView(final String job, final int shardCount) {
        this.job = job;
        this.shards = new ModelShard[shardCount];
    }

    /**
     * Keeps {@code shard} if it belongs to this job and is newer than what is held (a higher version,
     * or the same version with a higher {@code minClock}, as when a silent worker leaves the live set);
     * says whether it was kept.
     */
    public boolean offer(final ModelShard shard) {
        if (shard == null || !job.equals(shard.getJob()) || shard.getShard() < 0 || shard.getShard() >= shards.length) {
            return false;
        }
        final ModelShard held = shards[shard.getShard()];
        if (held != null
                && (held.getVersion() > shard.getVersion()
                        || held.getVersion() == shard.getVersion() && held.getMinClock() >= shard.getMinClock())) {
            return false;
        }
        shards[shard.getShard()] = shard;
        return true;
    }

    public boolean complete() {
        for (final ModelShard shard : shards) {
            if (shard == null) {
                return false;
            }
        }
        return true;
    }

    /** Smallest {@code minClock} over the shards, -1 until every shard has been seen. */
    public long minClock() {
        long min = Long.MAX_VALUE;
        for (final ModelShard shard : shards) {
            if (shard == null) {
                return -1;
            }
            min = Math.min(min, shard.getMinClock());
        }
        return min;
    }

    /** Smallest version over the shards, -1 until every shard has been seen. */
    public long minVersion() {
        long min = Long.MAX_VALUE;
        for (final ModelShard shard : shards) {
            if (shard == null) {
                return -1;
            }
            min = Math.min(min, shard.getVersion());
        }
        return min;
    }

    /** How many clocks of {@code worker} every shard includes, -1 until every shard has been seen. */
    public long appliedClocks(final String worker) {
        long min = Long.MAX_VALUE;
        for (final ModelShard shard : shards) {
            if (shard == null) {
                return -1;
            }
            min = Math.min(min, shard.getClocks().getOrDefault(worker, 0L));
        }
        return min;
    }

    /** The orchestrator's batch shares carried by shard 0's newest version; empty when there are none. */
    public Map<String, Double> planShares() {
        return shards[0] == null ? Map.of() : shards[0].getShares();
    }

    /** The orchestrator's compute threads per worker carried by shard 0's newest version; empty when there are none. */
    public Map<String, Integer> planThreads() {
        return shards[0] == null ? Map.of() : shards[0].getThreads();
    }

    /** Version of the plan {@link #planShares()} comes from (the shard's {@code planEpoch}), -1 when there is none. */
    public long planVersion() {
        return shards[0] == null ? -1 : shards[0].getPlanEpoch();
    }

    /** Version of each shard, -1 where none has been seen. */
    public long[] versions() {
        final long[] versions = new long[shards.length];
        for (int s = 0; s < shards.length; s++) {
            versions[s] = shards[s] == null ? -1 : shards[s].getVersion();
        }
        return versions;
    }

    /** The full parameter vector of {@code parameters} values; every shard must be present. */
    public float[] assemble(final int parameters) {
        final float[] full = new float[parameters];
        for (final ModelShard shard : shards) {
            if (shard == null) {
                throw new IllegalStateException("model of job " + job + " is incomplete");
            }
            final float[] values = FloatPacking.unpack(shard.getValues());
            System.arraycopy(values, 0, full, shard.getFirstParameter(), values.length);
        }
        return full;
    }
}
