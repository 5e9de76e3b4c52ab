package io.paramhub.topology;

/**
 * Record and store keys: {@code job/shard} on {@code gradients} and {@code model},
 * {@code job/worker} on {@code telemetry}, {@code commands} and {@code membership},
 * {@code job/replica-r} on {@code activations} and {@code activation-gradients}.
 */
public final class ShardKeys {

    private ShardKeys() {}

    public static String shard(final String job, final int shard) {
        return job + "/" + shard;
    }

    public static String worker(final String job, final String worker) {
        return job + "/" + worker;
    }

    /** The key of a hybrid job's replica: all its stages' micro-batches share it, and so one partition. */
    public static String replica(final String job, final int replica) {
        return job + "/replica-" + replica;
    }
}
