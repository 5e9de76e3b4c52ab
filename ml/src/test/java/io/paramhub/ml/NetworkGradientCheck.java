package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Test helper for the float32 networks: compares the analytic gradient with central finite
 * differences on every parameter or a seeded random subset of them.
 *
 * <p>A network computes its activations in float, so each sample's loss carries rounding noise of
 * about 1e-7 relative, which a step of 1e-3 turns into at most about 1e-3 in the difference
 * quotient; a larger step (1e-2) lets too many ReLU units and pooling windows switch inside the
 * interval, where central differences are no longer the derivative. Each parameter must agree within
 * {@code 2e-3 + 1e-2 |numeric|}, or, where even that interval holds a switch (a weight of the first
 * convolution moves thousands of pooling windows), within {@code 1e-2 + 1e-2 |numeric|} at step
 * 1e-4, where rounding noise is ten times larger but the switches have moved out: a kink disagrees at
 * one step only, a wrong sign, a missing bias gradient or a transposed weight at both (the
 * broken-model tests check the helper does catch those).
 */
final class NetworkGradientCheck {

    static final double STEP = 1e-3;
    /** The second try, for a parameter whose interval at {@link #STEP} holds a kink. */
    static final double FINE_STEP = 1e-4;

    private NetworkGradientCheck() {}

    /** The parameter indices whose analytic and numeric derivatives disagree, with both values. */
    static List<String> mismatches(
            final Model model, final float[] params, final Dataset data, final int[] samples, final int[] indices) {
        return mismatches(model, params, data, samples, indices, 0, 0);
    }

    /**
     * The same for the gradient of clock {@code clock} of a job seeded {@code seed}: training-time
     * randomness (dropout masks) is fixed by them, so the loss is a function of the parameters alone.
     */
    static List<String> mismatches(
            final Model model,
            final float[] params,
            final Dataset data,
            final int[] samples,
            final int[] indices,
            final long seed,
            final long clock) {
        final double[] analytic = new double[model.parameterCount()];
        model.accumulateGradient(params, data, samples, analytic, seed, clock);
        final List<String> bad = new ArrayList<>();
        for (final int i : indices) {
            final double numeric = centralDifference(model, params, data, samples, seed, clock, i, STEP);
            if (Math.abs(analytic[i] - numeric) <= 2e-3 + 1e-2 * Math.abs(numeric)) {
                continue;
            }
            final double fine = centralDifference(model, params, data, samples, seed, clock, i, FINE_STEP);
            if (Math.abs(analytic[i] - fine) > 1e-2 + 1e-2 * Math.abs(fine)) {
                bad.add("param " + i + ": analytic " + analytic[i] + ", numeric " + numeric + " (step " + STEP + "), "
                        + fine + " (step " + FINE_STEP + ")");
            }
        }
        return bad;
    }

    private static double centralDifference(
            final Model model,
            final float[] params,
            final Dataset data,
            final int[] samples,
            final long seed,
            final long clock,
            final int i,
            final double step) {
        final float[] plus = params.clone();
        final float[] minus = params.clone();
        plus[i] = (float) (params[i] + step);
        minus[i] = (float) (params[i] - step);
        return (loss(model, plus, data, samples, seed, clock) - loss(model, minus, data, samples, seed, clock))
                / ((double) plus[i] - minus[i]);
    }

    static void assertGradientMatches(
            final Model model, final float[] params, final Dataset data, final int[] samples, final int[] indices) {
        assertThat(mismatches(model, params, data, samples, indices)).isEmpty();
    }

    static void assertGradientMatches(
            final Model model,
            final float[] params,
            final Dataset data,
            final int[] samples,
            final int[] indices,
            final long seed,
            final long clock) {
        assertThat(mismatches(model, params, data, samples, indices, seed, clock))
                .isEmpty();
    }

    /** The summed loss at clock {@code clock} of a job seeded {@code seed}. */
    static double loss(
            final Model model,
            final float[] params,
            final Dataset data,
            final int[] samples,
            final long seed,
            final long clock) {
        return model.accumulateGradient(params, data, samples, new double[model.parameterCount()], seed, clock);
    }

    /** Every index below {@code count}. */
    static int[] all(final int count) {
        final int[] indices = new int[count];
        for (int i = 0; i < count; i++) {
            indices[i] = i;
        }
        return indices;
    }

    /** {@code size} distinct indices below {@code count}, drawn with the given seed, plus the last one. */
    static int[] subset(final int count, final int size, final long seed) {
        final Random random = new Random(seed);
        final int[] indices = random.ints(0, count).distinct().limit(size - 1L).toArray();
        final int[] withLast = Arrays.copyOf(indices, size);
        withLast[size - 1] = count - 1;
        return withLast;
    }

    /** {@code samples} random images of {@code features} pixels in [0, 1) with labels below {@code classes}. */
    static Dataset randomImages(final Random random, final int samples, final int features, final int classes) {
        final float[] x = new float[samples * features];
        for (int i = 0; i < x.length; i++) {
            x[i] = random.nextFloat();
        }
        final float[] y = new float[samples];
        for (int i = 0; i < samples; i++) {
            y[i] = random.nextInt(classes);
        }
        return new Dataset("random-images", features, x, y, classes);
    }
}
