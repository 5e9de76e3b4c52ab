package io.paramhub.ml;

/**
 * Sums partial gradient sums and their sample counts in double, in call order, and divides by
 * the total count: what an aggregator does with one clock's gradients for one shard.
 */
public final class GradientSum {

    private final double[] sum;
    private int samples;

    /** An empty sum of vectors of {@code length} values. */
    public GradientSum(final int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        this.sum = new double[length];
    }

    /**
     * Adds a partial gradient, itself the sum over {@code samples} samples.
     *
     * @throws IllegalArgumentException if the length differs or {@code samples} is negative
     */
    public void add(final float[] partialSum, final int samples) {
        requireShape(partialSum.length, samples);
        for (int i = 0; i < sum.length; i++) {
            sum[i] += partialSum[i];
        }
        this.samples = Math.addExact(this.samples, samples);
    }

    /**
     * Adds a partial gradient summed in double already (a host's sum of its workers' float32 gradients, in their
     * order): into an empty sum it adds exactly what adding those gradients one by one would have.
     *
     * @throws IllegalArgumentException if the length differs or {@code samples} is negative
     */
    public void add(final double[] partialSum, final int samples) {
        requireShape(partialSum.length, samples);
        for (int i = 0; i < sum.length; i++) {
            sum[i] += partialSum[i];
        }
        this.samples = Math.addExact(this.samples, samples);
    }

    private void requireShape(final int length, final int samples) {
        if (length != sum.length) {
            throw new IllegalArgumentException("expected " + sum.length + " values, got " + length);
        }
        if (samples < 0) {
            throw new IllegalArgumentException("samples must be >= 0, got " + samples);
        }
    }

    /** The sum so far, in double: this sum's own array, read-only for the caller and valid until the next add. */
    public double[] values() {
        return sum;
    }

    /** The total number of samples added so far. */
    public int samples() {
        return samples;
    }

    /**
     * The mean gradient, {@code (float) (sum / samples)}.
     *
     * @throws IllegalStateException if no samples have been added
     */
    public float[] mean() {
        if (samples == 0) {
            throw new IllegalStateException("no samples to average over");
        }
        final float[] mean = new float[sum.length];
        for (int i = 0; i < sum.length; i++) {
            mean[i] = (float) (sum[i] / samples);
        }
        return mean;
    }
}
