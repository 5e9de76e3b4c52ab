package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Collects, from a stream of {@code model} records, the model as of clocks {@code every}, 2 x {@code every},
 * ...: for each shard the first version whose {@code minClock} reaches the clock, that is, the first version
 * that holds every live worker's gradients of the clocks before it. Under BSP that is exactly version = clock.
 *
 * <p>The records of different shards may come in any order: a reader catching up on a finished job gets one
 * partition's whole backlog before the next one's, so a shard's record may complete several clocks' models
 * before another shard has reached the first. Each shard therefore keeps the next clock it has not yet been
 * captured for, and partly collected models wait until every shard has reached their clock.
 */
public final class ModelSnapshots {

    /** The model as of {@code clock}; {@code minVersion} is the smallest shard version it was taken from. */
    public record Snapshot(long clock, long minVersion, float[] parameters) {}

    private final String job;
    private final int parameters;
    private final long every;
    private final long[] nextClock;
    private final TreeMap<Long, Partial> partials = new TreeMap<>();
    /** What a record of the job can say ({@link ModelBounds}); nothing is checked when null. */
    private ModelBounds bounds;

    public ModelSnapshots(final String job, final int parameters, final int shards, final long every) {
        if (every < 1) {
            throw new IllegalArgumentException("snapshots every " + every + " clocks: must be >= 1");
        }
        this.job = job;
        this.parameters = parameters;
        this.every = every;
        this.nextClock = new long[shards];
        Arrays.fill(nextClock, every);
    }

    /**
     * These snapshots, from now on passing over every record past {@code jobBounds}: a forged {@code minClock} far
     * past the job's end would otherwise start a partial model every {@code every} clocks up to it.
     */
    public ModelSnapshots bounded(final ModelBounds jobBounds) {
        this.bounds = jobBounds;
        return this;
    }

    /** The smallest {@code minClock} a record must have to be of use: every version below it is passed over. */
    public long nextClock() {
        long next = Long.MAX_VALUE;
        for (final long clock : nextClock) {
            next = Math.min(next, clock);
        }
        return next;
    }

    /**
     * Takes one record's value; returns the models it completes, oldest first (usually none, or one). A
     * tombstone (null: a deleted job's shard), other jobs' records and records past the bounds are skipped.
     */
    public List<Snapshot> offer(final ModelShard shard) {
        if (shard == null
                || !job.equals(shard.getJob())
                || shard.getShard() < 0
                || shard.getShard() >= nextClock.length
                || shard.getMinClock() < nextClock[shard.getShard()]
                || bounds != null && bounds.problem(shard, null) != null) {
            return List.of();
        }
        final float[] values = FloatPacking.unpack(shard.getValues());
        while (nextClock[shard.getShard()] <= shard.getMinClock()) {
            partials.computeIfAbsent(nextClock[shard.getShard()], clock -> new Partial(parameters, nextClock.length))
                    .fill(shard, values);
            nextClock[shard.getShard()] += every;
        }
        final List<Snapshot> completed = new ArrayList<>(1);
        while (!partials.isEmpty() && partials.firstEntry().getValue().missing == 0) {
            final var oldest = partials.pollFirstEntry();
            completed.add(new Snapshot(oldest.getKey(), oldest.getValue().minVersion, oldest.getValue().buffer));
        }
        return completed;
    }

    /** A model as of one clock, some of whose shards are still to come. */
    private static final class Partial {
        private final float[] buffer;
        private int missing;
        private long minVersion = Long.MAX_VALUE;

        Partial(final int parameters, final int shards) {
            this.buffer = new float[parameters];
            this.missing = shards;
        }

        void fill(final ModelShard shard, final float[] values) {
            System.arraycopy(values, 0, buffer, shard.getFirstParameter(), values.length);
            minVersion = Math.min(minVersion, shard.getVersion());
            missing--;
        }
    }
}
