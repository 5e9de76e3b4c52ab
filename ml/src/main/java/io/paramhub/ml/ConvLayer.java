package io.paramhub.ml;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A 2-D convolution (square kernel, stride 1, zero padding {@code pad} on every side) inside a model's
 * flat parameter vector: weights {@code [out channel][in channel][ky][kx]} at {@link #weightOffset},
 * then one bias per output channel. Images are channel-major, {@code [channel][row][column]}.
 *
 * <p>The input is copied into a zero-bordered image, then unrolled (im2col) into one row per patch element
 * ({@code [patch element][position]}) for the forward pass, so that each output channel is a {@link RowOps} weighted sum of those rows,
 * and into one row per output position ({@code [position][patch element]}) for the backward pass,
 * which visits only the positions whose gradient is not 0: after 2 x 2 max pooling at most one in
 * four, fewer after ReLU ({@link SparseDeltas}).
 */
final class ConvLayer {

    private final int inChannels;
    private final int side;
    private final int kernel;
    private final int pad;
    private final int outChannels;
    private final int weightOffset;
    /** Where patch element k of the position at padded index 0 lies in the padded image. */
    private final int[] patchOffsets;

    /** A convolution of {@code inChannels} images of {@code side} x {@code side}. */
    ConvLayer(
            final int inChannels,
            final int side,
            final int kernel,
            final int pad,
            final int outChannels,
            final int weightOffset) {
        if (pad < 0 || pad >= kernel) {
            throw new IllegalArgumentException("padding must be in [0, kernel), got " + pad + " for kernel " + kernel);
        }
        if (kernel < 1 || kernel > side + 2 * pad) {
            throw new IllegalArgumentException(
                    "kernel " + kernel + " does not fit an image of side " + side + " padded by " + pad);
        }
        this.inChannels = inChannels;
        this.side = side;
        this.kernel = kernel;
        this.pad = pad;
        this.outChannels = outChannels;
        this.weightOffset = weightOffset;
        this.patchOffsets = patchOffsets(inChannels, paddedSide(), kernel);
    }

    /** Patch element (c, ky, kx), numbered as the weights are, at {@code (c * wide + ky) * wide + kx}. */
    private static int[] patchOffsets(final int inChannels, final int wide, final int kernel) {
        final int[] offsets = new int[inChannels * kernel * kernel];
        int k = 0;
        for (int c = 0; c < inChannels; c++) {
            for (int ky = 0; ky < kernel; ky++) {
                for (int kx = 0; kx < kernel; kx++) {
                    offsets[k++] = (c * wide + ky) * wide + kx;
                }
            }
        }
        return offsets;
    }

    /** The padded-image index of the top left corner of output position {@code p}'s patch. */
    private int patchCorner(final int p) {
        return (p / outSide()) * paddedSide() + p % outSide();
    }

    /** The side of the output images. */
    int outSide() {
        return side + 2 * pad - kernel + 1;
    }

    /** Forward multiply-adds per image: output positions x patch elements x output channels. */
    long multiplyAdds() {
        return (long) positions() * patch() * outChannels;
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

    /**
     * Its tensors {@code PREFIX.weight [out channels, in channels, kernel, kernel]} and {@code PREFIX.bias [out
     * channels]}, as a torch.nn.Conv2d's.
     */
    List<NamedTensor> tensors(final String prefix) {
        return List.of(
                NamedTensor.of(prefix + ".weight", outChannels, inChannels, kernel, kernel),
                NamedTensor.of(prefix + ".bias", outChannels));
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

    /** Copies the weights into {@code rows} ({@code [out channel][patch element]}). */
    void weightRows(final float[] params, final float[][] rows) {
        for (int o = 0; o < outChannels; o++) {
            System.arraycopy(params, weightOffset + o * patch(), rows[o], 0, patch());
        }
    }

    /** The side of the input image with its zero border. */
    int paddedSide() {
        return side + 2 * pad;
    }

    /** Values of the padded input image, all channels. */
    int paddedSize() {
        return inChannels * paddedSide() * paddedSide();
    }

    /**
     * Copies the image at {@code in[inOffset..]}, mirrored left to right if {@code mirrored}, into the
     * middle of {@code padded}, whose border of {@code pad} pixels must be 0 (as in a new array; this
     * never writes it).
     */
    void pad(final float[] in, final int inOffset, final float[] padded, final boolean mirrored) {
        final int wide = paddedSide();
        for (int c = 0; c < inChannels; c++) {
            for (int y = 0; y < side; y++) {
                final int from = inOffset + (c * side + y) * side;
                final int to = (c * wide + y + pad) * wide + pad;
                if (mirrored) {
                    for (int x = 0; x < side; x++) {
                        padded[to + x] = in[from + side - 1 - x];
                    }
                } else {
                    System.arraycopy(in, from, padded, to, side);
                }
            }
        }
    }

    /**
     * Unrolls the padded image into {@code colsT[k][p]}: the value patch element {@code k = (c, ky, kx)}
     * sees at output position {@code p}.
     */
    void unroll(final float[] padded, final float[][] colsT) {
        final int out = outSide();
        final int wide = paddedSide();
        int k = 0;
        for (int c = 0; c < inChannels; c++) {
            for (int ky = 0; ky < kernel; ky++) {
                for (int kx = 0; kx < kernel; kx++) {
                    final float[] row = colsT[k++];
                    for (int y = 0; y < out; y++) {
                        System.arraycopy(padded, (c * wide + y + ky) * wide + kx, row, y * out, out);
                    }
                }
            }
        }
    }

    /**
     * Unrolls the padded image into {@code cols[p][k]} for the positions {@code p} that {@code deltas}
     * names (the other rows are left as they are).
     */
    void unrollPositions(final float[] padded, final SparseDeltas deltas, final float[][] cols) {
        for (int p = 0; p < positions(); p++) {
            if (!deltas.hasPosition(p)) {
                continue;
            }
            final float[] row = cols[p];
            final int corner = patchCorner(p);
            for (int k = 0; k < patchOffsets.length; k++) {
                row[k] = padded[corner + patchOffsets[k]];
            }
        }
    }

    /** {@code out[o] = b[o] + sum_k W[o][k] colsT[k]}. */
    void forward(final float[] params, final float[][] colsT, final float[][] out) {
        final int patch = patch();
        final int bias = biasOffset();
        for (int o = 0; o < outChannels; o++) {
            Arrays.fill(out[o], 0, positions(), params[bias + o]);
            RowOps.addWeighted(params, weightOffset + o * patch, colsT, 0, patch, out[o], positions());
        }
    }

    /**
     * Adds {@code dW[o] += sum_p delta[o][p] cols[p]} and {@code db[o] += sum_p delta[o][p]} over the
     * nonzero deltas, in order of position.
     */
    void accumulateGradient(
            final SparseDeltas deltas,
            final float[][] cols,
            final float[][] weightGradient,
            final float[] biasGradient,
            final Gather gather) {
        for (int o = 0; o < outChannels; o++) {
            final int count = deltas.count(o);
            float biasSum = 0;
            for (int i = 0; i < count; i++) {
                final float d = deltas.value(o, i);
                gather.coefficients[i] = d;
                gather.rows[i] = cols[deltas.position(o, i)];
                biasSum += d;
            }
            RowOps.addWeighted(gather.coefficients, 0, gather.rows, 0, count, weightGradient[o], patch());
            biasGradient[o] += biasSum;
        }
    }

    /**
     * The gradient with respect to the (unpadded) input image, overwriting {@code inDelta}: for each
     * position with nonzero deltas, {@code sum_o delta[o][p] W[o]} (into {@code colsDelta[p]}), added
     * back onto the pixels that position's patch covers in {@code paddedDelta} (a scratch array of
     * {@link #paddedSize()}), whose middle is then {@code inDelta}.
     */
    void backpropagate(
            final float[][] weightRows,
            final SparseDeltas deltas,
            final float[][] colsDelta,
            final float[] paddedDelta,
            final float[] inDelta,
            final Gather gather) {
        Arrays.fill(paddedDelta, 0, paddedSize(), 0f);
        final int wide = paddedSide();
        final int patch = patch();
        deltas.indexByPosition();
        for (int p = 0; p < positions(); p++) {
            final int count = deltas.countAt(p);
            if (count == 0) {
                continue;
            }
            for (int i = 0; i < count; i++) {
                gather.coefficients[i] = deltas.valueAt(p, i);
                gather.rows[i] = weightRows[deltas.channelAt(p, i)];
            }
            final float[] row = colsDelta[p];
            Arrays.fill(row, 0, patch, 0f);
            RowOps.addWeighted(gather.coefficients, 0, gather.rows, 0, count, row, patch);
            final int corner = patchCorner(p);
            for (int k = 0; k < patchOffsets.length; k++) {
                paddedDelta[corner + patchOffsets[k]] += row[k];
            }
        }
        for (int c = 0; c < inChannels; c++) {
            for (int y = 0; y < side; y++) {
                System.arraycopy(paddedDelta, (c * wide + y + pad) * wide + pad, inDelta, (c * side + y) * side, side);
            }
        }
    }

    /** Adds the weight and bias gradients to the double gradient sum in the parameter layout. */
    void addTo(final float[][] weightGradient, final float[] biasGradient, final double[] gradientSum) {
        for (int o = 0; o < outChannels; o++) {
            VectorOps.addTo(weightGradient[o], gradientSum, weightOffset + o * patch());
        }
        VectorOps.addTo(biasGradient, gradientSum, biasOffset());
    }
}
