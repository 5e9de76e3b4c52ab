package io.paramhub.ml;

/**
 * How many shards a model's parameter vector needs so that every record carrying one shard fits
 * comfortably in a Kafka record.
 *
 * <p>The rule: {@code shards = max(requested, ceil(4 * parameters / RECORD_BUDGET_BYTES))}, at most
 * one per parameter. A shard then carries at most {@value #RECORD_BUDGET_BYTES} bytes of float32
 * values in a {@code GradientShard} or {@code ModelShard}, and at most three times that in the
 * aggregator's {@code ShardState} changelog record (parameters plus Adam's two moment vectors), so
 * every record stays under the 1 MiB that Kafka's defaults allow ({@code max.request.size} of the
 * producer, {@code message.max.bytes} of the broker) even on a cluster that was never tuned.
 */
public final class ShardSizing {

    /** The float32 payload one shard may carry: 256 KiB, 65,536 parameters. */
    public static final int RECORD_BUDGET_BYTES = 256 * 1024;

    private ShardSizing() {}

    /** The fewest shards of at most {@link #RECORD_BUDGET_BYTES} each for {@code parameters} floats. */
    public static int minimumShards(final int parameters) {
        if (parameters < 1) {
            throw new IllegalArgumentException("need >= 1 parameter, got " + parameters);
        }
        final long bytes = (long) parameters * Float.BYTES;
        return (int) ((bytes + RECORD_BUDGET_BYTES - 1) / RECORD_BUDGET_BYTES);
    }

    /** {@code requested}, raised to {@link #minimumShards} and capped at {@code parameters}. */
    public static int shards(final int parameters, final int requested) {
        if (requested < 1) {
            throw new IllegalArgumentException("need >= 1 shard, got " + requested);
        }
        return Math.min(parameters, Math.max(requested, minimumShards(parameters)));
    }
}
