package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.client.ModelView;

/**
 * One job's model as read from {@code model}: the newest version of each shard ({@link ModelView}), and
 * the newest set of shards that were all at one version at once, which is the model worth evaluating
 * (shards of different versions would mix two models). Holds record references, not copies.
 */
final class ModelTracker {

    /** A whole model of one version, ready to assemble. */
    record Aligned(long version, long minClock, ModelShard[] shards) {

        /** The parameter vector of {@code parameters} values. */
        float[] assemble(final int parameters) {
            final float[] full = new float[parameters];
            for (final ModelShard shard : shards) {
                final float[] values = FloatPacking.unpack(shard.getValues());
                System.arraycopy(values, 0, full, shard.getFirstParameter(), values.length);
            }
            return full;
        }
    }

    /** What the board shows of a model: smallest version and minClock over the shards, shard 0's plan version. */
    record Figures(long version, long minClock, long planVersion) {
        static final Figures NONE = new Figures(-1, -1, -1);
    }

    private final ModelView newest;
    private final ModelShard[] held;
    private Aligned aligned;
    private long handedOutVersion = -1;

    ModelTracker(final String job, final int shards) {
        this.newest = new ModelView(job, shards);
        this.held = new ModelShard[shards];
    }

    /** Takes one record; says whether it was newer than what was held. */
    boolean offer(final ModelShard shard) {
        if (!newest.offer(shard)) {
            return false;
        }
        held[shard.getShard()] = shard;
        final long version = shard.getVersion();
        long minClock = Long.MAX_VALUE;
        for (final ModelShard each : held) {
            if (each == null || each.getVersion() != version) {
                return true;
            }
            minClock = Math.min(minClock, each.getMinClock());
        }
        aligned = new Aligned(version, minClock, held.clone());
        return true;
    }

    /** Smallest version over the shards, -1 until every shard has been seen. */
    long version() {
        return newest.minVersion();
    }

    /** Smallest {@code minClock} over the shards, -1 until every shard has been seen. */
    long minClock() {
        return newest.minClock();
    }

    /** Version, minClock and plan version, -1 for what has not been seen. */
    Figures figures() {
        return new Figures(version(), minClock(), planVersion());
    }

    /** Version of the plan shard 0's newest version carries, -1 for none. */
    long planVersion() {
        return newest.planVersion();
    }

    /** The newest aligned model if it is newer than the last one handed out, else null. */
    Aligned takeNewAligned() {
        if (aligned == null || aligned.version() <= handedOutVersion) {
            return null;
        }
        handedOutVersion = aligned.version();
        return aligned;
    }
}
