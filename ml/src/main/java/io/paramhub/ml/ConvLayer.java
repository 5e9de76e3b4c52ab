package io.paramhub.ml;

import java.util.Arrays;
import java.util.Random;

/**
 * A 2-D convolution (square kernel, stride 1, no padding) inside a model's flat parameter vector:
 * weights {@code [out channel][in channel][ky][kx]} at {@link #weightOffset}, then one bias per
 * output channel. Images are channel-major, {@code [channel][row][column]}.
 *
 * <p>The input is unrolled into patch columns stored transposed, {@code [patch element][position]},
 * so that forward pass, weight gradient and input gradient all run their inner loop along the
 * output positions (576 for the first layer on 28 x 28 images), which C2 vectorizes.
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

    /** Unrolls the image at {@code in[inOffset..]} into {@code cols}, {@code [patch element][position]}. */
    void unroll(final float[] in, final int inOffset, final float[] cols) {
        final int out = outSide();
        final int positions = positions();
        int row = 0;
        for (int c = 0; c < inChannels; c++) {
            for (int ky = 0; ky < kernel; ky++) {
                for (int kx = 0; kx < kernel; kx++) {
                    final int base = row * positions;
                    for (int y = 0; y < out; y++) {
                        System.arraycopy(in, inOffset + (c * side + y + ky) * side + kx, cols, base + y * out, out);
                    }
                    row++;
                }
            }
        }
    }

    /** Adds the unrolled gradient {@code colsDelta} back onto the image gradient {@code inDelta}. */
    void roll(final float[] colsDelta, final float[] inDelta) {
        Arrays.fill(inDelta, 0, inputSize(), 0f);
        final int out = outSide();
        final int positions = positions();
        int row = 0;
        for (int c = 0; c < inChannels; c++) {
            for (int ky = 0; ky < kernel; ky++) {
                for (int kx = 0; kx < kernel; kx++) {
                    final int base = row * positions;
                    for (int y = 0; y < out; y++) {
                        VectorOps.axpy(1f, colsDelta, base + y * out, inDelta, (c * side + y + ky) * side + kx, out);
                    }
                    row++;
                }
            }
        }
    }

    /** {@code out[o][p] = b[o] + sum_k W[o][k] cols[k][p]}. */
    void forward(final float[] params, final float[] cols, final float[] out) {
        final int positions = positions();
        final int patch = patch();
        final int bias = biasOffset();
        for (int o = 0; o < outChannels; o++) {
            final int target = o * positions;
            Arrays.fill(out, target, target + positions, params[bias + o]);
            final int row = weightOffset + o * patch;
            for (int k = 0; k < patch; k++) {
                VectorOps.axpy(params[row + k], cols, k * positions, out, target, positions);
            }
        }
    }

    /** Adds {@code dW[o][k] = sum_p delta[o][p] cols[k][p]} and {@code db[o] = sum_p delta[o][p]} to {@code gradient}. */
    void accumulateGradient(final float[] cols, final float[] delta, final float[] gradient) {
        final int positions = positions();
        final int patch = patch();
        final int bias = biasOffset();
        for (int o = 0; o < outChannels; o++) {
            final int source = o * positions;
            final int row = weightOffset + o * patch;
            for (int k = 0; k < patch; k++) {
                gradient[row + k] += VectorOps.dot(delta, source, cols, k * positions, positions);
            }
            float sum = 0;
            for (int p = 0; p < positions; p++) {
                sum += delta[source + p];
            }
            gradient[bias + o] += sum;
        }
    }

    /** {@code colsDelta[k][p] = sum_o W[o][k] delta[o][p]}, overwriting {@code colsDelta}. */
    void backpropagate(final float[] params, final float[] delta, final float[] colsDelta) {
        final int positions = positions();
        final int patch = patch();
        Arrays.fill(colsDelta, 0, patch * positions, 0f);
        for (int o = 0; o < outChannels; o++) {
            final int source = o * positions;
            final int row = weightOffset + o * patch;
            for (int k = 0; k < patch; k++) {
                final float w = params[row + k];
                VectorOps.axpy(w, delta, source, colsDelta, k * positions, positions);
            }
        }
    }
}
