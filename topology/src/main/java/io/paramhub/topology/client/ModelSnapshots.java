package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.util.Arrays;

/**
 * Collects, from a stream of {@code model} records, the model as of a target clock: for each shard
 * the first version whose {@code minClock} reaches the target, that is, the first version that holds
 * every live worker's gradients of the clocks before it. Under BSP that is exactly version = target.
 */
public final class ModelSnapshots {

    private final String job;
    private final int parameters;
    private final float[] buffer;
    private final boolean[] filled;
    private long target;
    private long minVersion;
    private int missing;

    public ModelSnapshots(final String job, final int parameters, final int shards, final long firstTarget) {
        this.job = job;
        this.parameters = parameters;
        this.buffer = new float[parameters];
        this.filled = new boolean[shards];
        retarget(firstTarget);
    }

    /** The clock being collected. */
    public long target() {
        return target;
    }

    /** The smallest shard version in the last completed snapshot. */
    public long minVersion() {
        return minVersion;
    }

    /**
     * Takes one record's value; returns the full vector when it completes the target, else null. A tombstone
     * (null: a deleted job's shard) is skipped.
     */
    public float[] offer(final ModelShard shard) {
        if (shard == null || !job.equals(shard.getJob()) || shard.getMinClock() < target || filled[shard.getShard()]) {
            return null;
        }
        final float[] values = FloatPacking.unpack(shard.getValues());
        System.arraycopy(values, 0, buffer, shard.getFirstParameter(), values.length);
        filled[shard.getShard()] = true;
        minVersion = Math.min(minVersion, shard.getVersion());
        missing--;
        return missing == 0 ? Arrays.copyOf(buffer, parameters) : null;
    }

    /** Starts collecting the model as of {@code clock}. */
    public void retarget(final long clock) {
        target = clock;
        minVersion = Long.MAX_VALUE;
        Arrays.fill(filled, false);
        missing = filled.length;
    }
}
