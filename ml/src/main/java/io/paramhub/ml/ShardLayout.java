package io.paramhub.ml;

/**
 * How a vector of {@code parameters} values is cut into {@code shards} contiguous shards: the
 * first {@code parameters % shards} shards are one value longer than the others.
 */
public record ShardLayout(int parameters, int shards) {

    /** Checks {@code 1 <= shards <= parameters}. */
    public ShardLayout {
        if (shards < 1 || shards > parameters) {
            throw new IllegalArgumentException(
                    "need 1 <= shards <= parameters, got " + shards + " shards of " + parameters + " parameters");
        }
    }

    /** The layout of {@code parameters} values in {@code shards} shards. */
    public static ShardLayout of(final int parameters, final int shards) {
        return new ShardLayout(parameters, shards);
    }

    /** The index of the first value of a shard. */
    public int first(final int shard) {
        requireShard(shard);
        return shard * (parameters / shards) + Math.min(shard, parameters % shards);
    }

    /** The number of values in a shard. */
    public int length(final int shard) {
        requireShard(shard);
        return parameters / shards + (shard < parameters % shards ? 1 : 0);
    }

    /** A copy of a shard's values out of the full vector. */
    public float[] slice(final float[] full, final int shard) {
        requireFull(full);
        final float[] values = new float[length(shard)];
        System.arraycopy(full, first(shard), values, 0, values.length);
        return values;
    }

    /** Writes a shard's values into the full vector. */
    public void place(final float[] full, final int shard, final float[] values) {
        requireFull(full);
        if (values.length != length(shard)) {
            throw new IllegalArgumentException(
                    "shard " + shard + " has " + length(shard) + " values, got " + values.length);
        }
        System.arraycopy(values, 0, full, first(shard), values.length);
    }

    private void requireShard(final int shard) {
        if (shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("shard " + shard + " out of range [0, " + shards + ")");
        }
    }

    private void requireFull(final float[] full) {
        if (full.length != parameters) {
            throw new IllegalArgumentException(
                    "layout of " + parameters + " parameters, got a vector of " + full.length);
        }
    }
}
