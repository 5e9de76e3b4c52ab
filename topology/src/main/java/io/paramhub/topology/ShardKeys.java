package io.paramhub.topology;

/**
 * Record and store keys: {@code job/shard} on {@code gradients} and {@code model},
 * {@code job/worker} on {@code telemetry}, {@code commands} and {@code membership}.
 */
public final class ShardKeys {

    private ShardKeys() {}

    public static String shard(final String job, final int shard) {
        return job + "/" + shard;
    }

    public static String worker(final String job, final String worker) {
        return job + "/" + worker;
    }
}
