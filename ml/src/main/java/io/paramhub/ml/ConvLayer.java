package io.paramhub.ml;

import java.util.Arrays;
import java.util.Random;

/**
 * A 2-D convolution (square kernel, stride 1, no padding) inside a model's flat parameter vector:
 * weights {@code [out channel][in channel][ky][kx]} at {@link #weightOffset}, then one bias per
 * output channel. Images are channel-major, {@code [channel][row][column]}.
 *
 * <p>Every inner loop is a scaled addition ({@link VectorOps#axpy}), which C2 vectorizes, never a
 * dot product, whose float reduction C2 must keep in order and so runs scalar (about 6x slower in
 * {@code DotKernelBenchmark}). So the input is unrolled twice: transposed patches ({@code [patch
 * element][position]}) for the forward pass, which runs along the positions, and plain patches
 * ({@code [position][patch element]}) for the backward pass, which runs along the patch and skips
 * positions whose gradient is 0 (three in four after 2 x 2 max pooling, more after ReLU).
 */
final class ConvLayer {

    private final int inChannels;
    private final int side;
    private final int kernel;
    private final int outChannels;
    private final int weightOffset;

    /** A convolution of {@code inChannels} images of {@code side} x {@code side}. */
    ConvLayer(final int inChannels, final int side, final int kernel, final int outChannels, final int weightOffset) {
        if (kernel < 1 || kernel > side) {
            throw new IllegalArgumentException("kernel " + kernel + " does not fit an image of side " + side);
        }
        this.inChannels = inChannels;
        this.side = side;
        this.kernel = kernel;
        this.outChannels = outChannels;
        this.weightOffset = weightOffset;
    }

    /** The side of the output images. */
    int outSide() {
        return side - kernel + 1;
    }

    /** Output positions per channel. */
    int positions() {
        return outSide() * outSide();
    }

    /** Values in one patch: in channels x kernel x kernel. */
    int patch() {
        return inChannels * kernel * kernel;
    }

    int outChannels() {
        return outChannels;
    }

    /** Values of the input image, all channels. */
    int inputSize() {
        return inChannels * side * side;
    }

    /** Values of the output image, all channels. */
    int outputSize() {
        return outChannels * positions();
    }

    int parameterCount() {
        return outChannels * (patch() + 1);
    }

    /** The index just past this layer's parameters. */
    int end() {
        return weightOffset + parameterCount();
    }

    private int biasOffset() {
        return weightOffset + outChannels * patch();
    }

    /** He initialisation: weights from N(0, 2 / patch), biases 0. */
    void initialize(final float[] params, final Random random) {
        final double scale = Math.sqrt(2.0 / patch());
        for (int i = weightOffset; i < biasOffset(); i++) {
            params[i] = (float) (scale * random.nextGaussian());
        }
    }

    /**
     * Unrolls the image at {@code in[inOffset..]} twice: {@code cols} as {@code [position][patch
     * element]} for the backward pass, {@code colsT} as {@code [patch element][position]} for the
     * forward pass.
     */
    void unroll(final float[] in, final int inOffset, final float[] cols, final float[] colsT) {
        final int out = outSide();
        final int positions = positions();
        final int patch = patch();
        int row = 0;
        for (int c = 0; c < inChannels; c++) {
            for (int ky = 0; ky < kernel; ky++) {
                for (int kx = 0; kx < kernel; kx++) {
                    final int base = row * positions;
                    for (int y = 0; y < out; y++) {
                        System.arraycopy(in, inOffset + (c * side + y + ky) * side + kx, colsT, base + y * out, out);
                    }
                    row++;
                }
            }
        }
        for (int k = 0; k < patch; k++) {
            final int base = k * positions;
            for (int p = 0; p < positions; p++) {
                cols[p * patch + k] = colsT[base + p];
            }
        }
    }

    /** Adds the unrolled gradient {@code colsDelta} ({@code [position][patch element]}) onto {@code inDelta}. */
    void roll(final float[] colsDelta, final float[] inDelta) {
        Arrays.fill(inDelta, 0, inputSize(), 0f);
        final int out = outSide();
        final int patch = patch();
        for (int y = 0; y < out; y++) {
            for (int x = 0; x < out; x++) {
                final int base = (y * out + x) * patch;
                int k = 0;
                for (int c = 0; c < inChannels; c++) {
                    for (int ky = 0; ky < kernel; ky++) {
                        VectorOps.axpy(1f, colsDelta, base + k, inDelta, (c * side + y + ky) * side + x, kernel);
                        k += kernel;
                    }
                }
            }
        }
    }

    /** {@code out[o][p] = b[o] + sum_k W[o][k] colsT[k][p]}, as scaled additions along the positions. */
    void forward(final float[] params, final float[] colsT, final float[] out) {
        final int positions = positions();
        final int patch = patch();
        final int bias = biasOffset();
        for (int o = 0; o < outChannels; o++) {
            final int target = o * positions;
            Arrays.fill(out, target, target + positions, params[bias + o]);
            final int row = weightOffset + o * patch;
            for (int k = 0; k < patch; k++) {
                VectorOps.axpy(params[row + k], colsT, k * positions, out, target, positions);
            }
        }
    }

    /**
     * Adds {@code dW[o] += delta[o][p] cols[p]} and {@code db[o] += delta[o][p]} to {@code gradient},
     * as scaled additions along the patch, skipping the positions whose delta is 0 (after ReLU and
     * max pooling, most of them).
     */
    void accumulateGradient(final float[] cols, final float[] delta, final float[] gradient) {
        final int positions = positions();
        final int patch = patch();
        final int bias = biasOffset();
        for (int o = 0; o < outChannels; o++) {
            final int source = o * positions;
            final int row = weightOffset + o * patch;
            float sum = 0;
            for (int p = 0; p < positions; p++) {
                final float d = delta[source + p];
                if (d != 0f) {
                    VectorOps.axpy(d, cols, p * patch, gradient, row, patch);
                    sum += d;
                }
            }
            gradient[bias + o] += sum;
        }
    }

    /**
     * {@code colsDelta[p] = sum_o delta[o][p] W[o]} ({@code [position][patch element]}), overwriting
     * {@code colsDelta}; skips zero deltas like {@link #accumulateGradient}.
     */
    void backpropagate(final float[] params, final float[] delta, final float[] colsDelta) {
        final int positions = positions();
        final int patch = patch();
        Arrays.fill(colsDelta, 0, patch * positions, 0f);
        for (int o = 0; o < outChannels; o++) {
            final int source = o * positions;
            final int row = weightOffset + o * patch;
            for (int p = 0; p < positions; p++) {
                final float d = delta[source + p];
                if (d != 0f) {
                    VectorOps.axpy(d, params, row, colsDelta, p * patch, patch);
                }
            }
        }
    }
}
