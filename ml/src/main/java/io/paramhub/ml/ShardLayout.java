package io.paramhub.ml;

import java.util.Arrays;
import java.util.TreeSet;

/**
 * How a vector of {@code parameters} values is cut into {@code shards} contiguous shards. The plain
 * layout ({@link #of}): the first {@code parameters % shards} shards are one value longer than the
 * others. An aligned layout ({@link #aligned}) never lets a shard straddle a given boundary, such as
 * where one pipeline stage's parameters end and another's begin, so that each shard has one owner.
 * Immutable.
 */
public final class ShardLayout {

    private final int parameters;
    private final int shards;
    /** The first index of each shard and, last, {@code parameters}; null for the plain layout. */
    private final int[] firsts;

    /** The plain layout; checks {@code 1 <= shards <= parameters}. */
    public ShardLayout(final int parameters, final int shards) {
        this(parameters, shards, null);
    }

    private ShardLayout(final int parameters, final int shards, final int[] firsts) {
        if (shards < 1 || shards > parameters) {
            throw new IllegalArgumentException(
                    "need 1 <= shards <= parameters, got " + shards + " shards of " + parameters + " parameters");
        }
        this.parameters = parameters;
        this.shards = shards;
        this.firsts = firsts;
    }

    /** The plain layout of {@code parameters} values in {@code shards} shards. */
    public static ShardLayout of(final int parameters, final int shards) {
        return new ShardLayout(parameters, shards);
    }

    /**
     * {@code shards} shards none of which straddles one of {@code boundaries} (indices in
     * {@code (0, parameters)}; others are ignored): the segments between boundaries get one shard each and
     * the rest go one by one to the segment whose shards are then the longest; within a segment the plain
     * layout. With no boundary inside the vector, the plain layout.
     *
     * @throws IllegalArgumentException if there are fewer shards than segments
     */
    public static ShardLayout aligned(final int parameters, final int shards, final int... boundaries) {
        final TreeSet<Integer> cuts = new TreeSet<>();
        for (final int boundary : boundaries) {
            if (boundary > 0 && boundary < parameters) {
                cuts.add(boundary);
            }
        }
        if (cuts.isEmpty()) {
            return of(parameters, shards);
        }
        final int[] starts = new int[cuts.size() + 2];
        int i = 1;
        for (final int cut : cuts) {
            starts[i++] = cut;
        }
        starts[starts.length - 1] = parameters;
        final int segments = starts.length - 1;
        if (shards < segments) {
            throw new IllegalArgumentException("need at least " + segments + " shards so that none straddles one of "
                    + cuts + " (pipeline stage boundaries), got " + shards);
        }
        final int[] count = new int[segments];
        Arrays.fill(count, 1);
        for (int given = segments; given < shards; given++) {
            int longest = -1;
            double longestLength = 0;
            for (int s = 0; s < segments; s++) {
                final int length = starts[s + 1] - starts[s];
                if (count[s] < length && (double) length / count[s] > longestLength) {
                    longest = s;
                    longestLength = (double) length / count[s];
                }
            }
            if (longest < 0) {
                throw new IllegalArgumentException(
                        "need 1 <= shards <= parameters, got " + shards + " shards of " + parameters + " parameters");
            }
            count[longest]++;
        }
        final int[] firsts = new int[shards + 1];
        int shard = 0;
        for (int s = 0; s < segments; s++) {
            final ShardLayout inside = of(starts[s + 1] - starts[s], count[s]);
            for (int k = 0; k < count[s]; k++) {
                firsts[shard++] = starts[s] + inside.first(k);
            }
        }
        firsts[shards] = parameters;
        return new ShardLayout(parameters, shards, firsts);
    }

    /** The number of values in the whole vector. */
    public int parameters() {
        return parameters;
    }

    /** The number of shards. */
    public int shards() {
        return shards;
    }

    /** The index of the first value of a shard. */
    public int first(final int shard) {
        requireShard(shard);
        if (firsts != null) {
            return firsts[shard];
        }
        return shard * (parameters / shards) + Math.min(shard, parameters % shards);
    }

    /** The number of values in a shard. */
    public int length(final int shard) {
        requireShard(shard);
        if (firsts != null) {
            return firsts[shard + 1] - firsts[shard];
        }
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

    @Override
    public boolean equals(final Object other) {
        return other instanceof ShardLayout that
                && parameters == that.parameters
                && shards == that.shards
                && Arrays.equals(firsts, that.firsts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * parameters + shards) + Arrays.hashCode(firsts);
    }

    @Override
    public String toString() {
        return "ShardLayout[parameters=" + parameters + ", shards=" + shards
                + (firsts == null ? "" : ", firsts=" + Arrays.toString(firsts)) + "]";
    }
}
