package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.util.Arrays;

/**
 * Collects, from a stream of {@code model} records, the exact parameter vector of one version at
 * a time (every shard at that version, never a mix), for an evaluator that watches training.
 */
public final class ModelSnapshots {

    private final String job;
    private final int parameters;
    private final float[] buffer;
    private final boolean[] filled;
    private long target;
    private int missing;

    public ModelSnapshots(final String job, final int parameters, final int shards, final long firstTarget) {
        this.job = job;
        this.parameters = parameters;
        this.buffer = new float[parameters];
        this.filled = new boolean[shards];
        retarget(firstTarget);
    }

    /** The version being collected. */
    public long target() {
        return target;
    }

    /** Takes one record; returns the full vector when it completes the target version, else null. */
    public float[] offer(final ModelShard shard) {
        if (!job.equals(shard.getJob()) || shard.getVersion() != target || filled[shard.getShard()]) {
            return null;
        }
        final float[] values = FloatPacking.unpack(shard.getValues());
        System.arraycopy(values, 0, buffer, shard.getFirstParameter(), values.length);
        filled[shard.getShard()] = true;
        missing--;
        return missing == 0 ? Arrays.copyOf(buffer, parameters) : null;
    }

    /** Starts collecting {@code version}. */
    public void retarget(final long version) {
        target = version;
        Arrays.fill(filled, false);
        missing = filled.length;
    }
}
