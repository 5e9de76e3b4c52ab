package io.paramhub.topology;

/**
 * Record and store keys: {@code job/shard} on {@code gradients} and {@code model},
 * {@code job/worker} on {@code telemetry}, {@code commands} and {@code membership}.
 */
public final class ShardKeys {

    private ShardKeys() {
    }

    public static String shard(final String job, final int shard) {
        return job + "/" + shard;
    }

    public static String worker(final String job, final String worker) {
        return job + "/" + worker;
    }

    /** Key of a buffered gradient; zero-padded so a prefix scan returns clocks, then workers, in order. */
    public static String pendingGradient(final String job, final int shard, final long clock, final String worker) {
        return pendingClockPrefix(job, shard, clock) + worker;
    }

    public static String pendingClockPrefix(final String job, final int shard, final long clock) {
        return String.format("%s/%d/%019d/", job, shard, clock);
    }
}
