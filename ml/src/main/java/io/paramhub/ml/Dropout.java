package io.paramhub.ml;

import java.util.SplittableRandom;

/**
 * Inverted dropout: in training, each unit of a sample is kept with probability {@code 1 - rate} and
 * then scaled by {@code 1 / (1 - rate)}, else set to 0; predictions use every unit unscaled.
 *
 * <p>The mask is a function of (job seed, clock, sample index, layer) alone, drawn from a
 * {@link SplittableRandom} seeded with their mix, so a sample's mask is the same whichever worker,
 * thread or block computes it, and a BSP run stays bit-reproducible.
 */
final class Dropout {

    private final double rate;
    private final float scale;

    /** Dropout of {@code rate} in [0, 1); 0 keeps every unit. */
    Dropout(final double rate) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("dropout rate must be in [0, 1), got " + rate);
        }
        this.rate = rate;
        this.scale = (float) (1 / (1 - rate));
    }

    double rate() {
        return rate;
    }

    boolean active() {
        return rate > 0;
    }

    /**
     * Multiplies {@code units} activations of each of the first {@code block} samples by their mask
     * ({@code 1 / (1 - rate)} or 0), which it keeps in {@code mask} for {@link #backward}.
     *
     * @param samples the data set indices of the block's samples, from {@code start} on
     * @param layer which of the model's dropout layers this is, so that each draws its own masks
     */
    void apply(
            final float[][] activations,
            final float[][] mask,
            final int units,
            final int[] samples,
            final int start,
            final int block,
            final long seed,
            final long clock,
            final int layer) {
        applyUnits(activations, mask, 0, units, samples, start, block, seed, clock, layer);
    }

    /**
     * As {@link #apply}, for the units {@code [from, to)} of a layer alone (a pipeline stage's share of it),
     * held from index 0 of each row: the same masks as the whole layer's, as the draws of the units before
     * {@code from} are drawn and passed over.
     */
    void applyUnits(
            final float[][] activations,
            final float[][] mask,
            final int from,
            final int to,
            final int[] samples,
            final int start,
            final int block,
            final long seed,
            final long clock,
            final int layer) {
        for (int s = 0; s < block; s++) {
            final SplittableRandom random = new SplittableRandom(key(seed, clock, samples[start + s], layer));
            for (int u = 0; u < from; u++) {
                random.nextDouble();
            }
            final float[] m = mask[s];
            final float[] a = activations[s];
            for (int u = from; u < to; u++) {
                m[u - from] = random.nextDouble() < rate ? 0f : scale;
                a[u - from] *= m[u - from];
            }
        }
    }

    /** Multiplies the deltas by the mask {@link #apply} used. */
    void backward(final float[][] delta, final float[][] mask, final int units, final int block) {
        for (int s = 0; s < block; s++) {
            final float[] d = delta[s];
            final float[] m = mask[s];
            for (int u = 0; u < units; u++) {
                d[u] *= m[u];
            }
        }
    }

    /** The seed of one sample's mask in one layer: (seed, clock, sample, layer) mixed with SplitMix64's finaliser. */
    static long key(final long seed, final long clock, final int sample, final int layer) {
        return mix(mix(mix(mix(seed) + clock) + sample) + layer);
    }

    private static long mix(final long value) {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
