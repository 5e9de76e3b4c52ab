package io.paramhub.ml;

import java.util.Arrays;

/**
 * Which samples each iteration trains on: iteration {@code clock} takes the next {@code B}
 * positions of its epoch's permutation of the data set, drawn from the job's seed, so every worker
 * and the reference trainer agree on the batch without talking to each other.
 *
 * <p>An epoch is {@code floor(n / B)} iterations; the last {@code n mod B} positions of each
 * permutation are not used. The permutation is part of the worker protocol (docs/protocol.md, "Which samples
 * a clock trains on"): a Fisher–Yates shuffle drawn from {@link SplitMix64}, which any language reproduces.
 * Thread-safe.
 */
public final class BatchPlan {

    private final int datasetSize;
    private final int globalBatch;
    private final long seed;
    private volatile EpochPermutation cached;

    /**
     * A plan for a data set of {@code datasetSize} samples.
     *
     * @throws IllegalArgumentException unless {@code 1 <= globalBatch <= datasetSize}
     */
    public BatchPlan(final int datasetSize, final int globalBatch, final long seed) {
        if (globalBatch < 1 || globalBatch > datasetSize) {
            throw new IllegalArgumentException("need 1 <= global batch <= data set size, got batch " + globalBatch
                    + " of " + datasetSize + " samples");
        }
        this.datasetSize = datasetSize;
        this.globalBatch = globalBatch;
        this.seed = seed;
    }

    /** The number of samples in the data set. */
    public int datasetSize() {
        return datasetSize;
    }

    /** The number of samples per iteration, over all workers. */
    public int globalBatch() {
        return globalBatch;
    }

    /** The seed the permutations are drawn from. */
    public long seed() {
        return seed;
    }

    /** {@code floor(datasetSize / globalBatch)}. */
    public int iterationsPerEpoch() {
        return datasetSize / globalBatch;
    }

    /** The 0-based epoch of iteration {@code clock}. */
    public int epochOf(final long clock) {
        requireClock(clock);
        final long epoch = clock / iterationsPerEpoch();
        if (epoch > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("clock " + clock + " is beyond the last epoch");
        }
        return (int) epoch;
    }

    /** The {@code globalBatch} sample indices of iteration {@code clock} (0-based), a fresh array. */
    public int[] batch(final long clock) {
        final int[] permutation = permutation(epochOf(clock));
        final int start = (int) (clock % iterationsPerEpoch()) * globalBatch;
        final int[] batch = new int[globalBatch];
        System.arraycopy(permutation, start, batch, 0, globalBatch);
        return batch;
    }

    /**
     * A worker's round-robin share of a batch: {@code batch[j]} for every {@code j} with
     * {@code j % workers == worker}, in order; empty if there is none.
     */
    public static int[] roundRobinShare(final int[] batch, final int worker, final int workers) {
        if (workers < 1 || worker < 0 || worker >= workers) {
            throw new IllegalArgumentException("worker " + worker + " out of range [0, " + workers + ")");
        }
        final int count = batch.length > worker ? (batch.length - worker + workers - 1) / workers : 0;
        final int[] share = new int[count];
        for (int i = 0; i < count; i++) {
            share[i] = batch[worker + i * workers];
        }
        return share;
    }

    /**
     * Worker {@code worker}'s contiguous chunk of {@code batch} when the workers' shares are
     * {@code shares} (in worker order, any positive scale): chunk boundaries are the cumulative shares
     * rounded to whole samples, so the chunks of all workers partition the batch exactly.
     */
    public static int[] contiguousShare(final int[] batch, final double[] shares, final int worker) {
        if (worker < 0 || worker >= shares.length) {
            throw new IllegalArgumentException("worker " + worker + " out of range [0, " + shares.length + ")");
        }
        double total = 0;
        for (final double share : shares) {
            if (!(share >= 0)) {
                throw new IllegalArgumentException("shares must be >= 0: " + Arrays.toString(shares));
            }
            total += share;
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("shares must not all be 0");
        }
        double before = 0;
        for (int w = 0; w < worker; w++) {
            before += shares[w];
        }
        final int lo = (int) Math.round(batch.length * before / total);
        final int hi = worker == shares.length - 1
                ? batch.length
                : (int) Math.round(batch.length * (before + shares[worker]) / total);
        return Arrays.copyOfRange(batch, lo, Math.max(lo, hi));
    }

    private int[] permutation(final int epoch) {
        final EpochPermutation current = cached;
        if (current != null && current.epoch() == epoch) {
            return current.indices();
        }
        final int[] indices = shuffle(epoch);
        cached = new EpochPermutation(epoch, indices);
        return indices;
    }

    /**
     * Fisher–Yates over {@code 0..n-1}, from the last position down: position i swaps with a draw in
     * {@code [0, i]} of a {@link SplitMix64} seeded with {@code seed + GOLDEN_GAMMA × (epoch + 1)}.
     */
    private int[] shuffle(final int epoch) {
        final SplitMix64 random = new SplitMix64(seed + SplitMix64.GOLDEN_GAMMA * (epoch + 1L));
        final int[] indices = new int[datasetSize];
        for (int i = 0; i < datasetSize; i++) {
            indices[i] = i;
        }
        for (int i = datasetSize - 1; i > 0; i--) {
            final int j = random.nextIndex(i + 1);
            final int swap = indices[i];
            indices[i] = indices[j];
            indices[j] = swap;
        }
        return indices;
    }

    private static void requireClock(final long clock) {
        if (clock < 0) {
            throw new IllegalArgumentException("clock must be >= 0, got " + clock);
        }
    }

    @Override
    public String toString() {
        return "BatchPlan[n=" + datasetSize + ", B=" + globalBatch + ", seed=" + seed + "]";
    }

    /** One epoch's permutation, published whole through a volatile field; never mutated. */
    private record EpochPermutation(int epoch, int[] indices) {}
}
