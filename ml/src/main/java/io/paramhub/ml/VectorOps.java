package io.paramhub.ml;

/**
 * The float kernels under every layer: dot products and scaled additions on plain arrays with
 * offsets, written so that HotSpot's C2 compiler unrolls and vectorizes them.
 */
final class VectorOps {

    private VectorOps() {}

    /** {@code sum_j a[aOffset + j] * b[bOffset + j]} in float with four independent accumulators. */
    static float dot(final float[] a, final int aOffset, final float[] b, final int bOffset, final int length) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int j = 0;
        for (; j + 3 < length; j += 4) {
            s0 += a[aOffset + j] * b[bOffset + j];
            s1 += a[aOffset + j + 1] * b[bOffset + j + 1];
            s2 += a[aOffset + j + 2] * b[bOffset + j + 2];
            s3 += a[aOffset + j + 3] * b[bOffset + j + 3];
        }
        for (; j < length; j++) {
            s0 += a[aOffset + j] * b[bOffset + j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** {@code target[targetOffset + j] += a * x[xOffset + j]} for {@code j < length}. */
    static void axpy(
            final float a,
            final float[] x,
            final int xOffset,
            final float[] target,
            final int targetOffset,
            final int length) {
        for (int j = 0; j < length; j++) {
            target[targetOffset + j] += a * x[xOffset + j];
        }
    }

    /** Adds a float accumulator into the double gradient sum at an offset. */
    static void addTo(final float[] source, final double[] target, final int targetOffset) {
        for (int j = 0; j < source.length; j++) {
            target[targetOffset + j] += source[j];
        }
    }
}
