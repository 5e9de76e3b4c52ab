package io.paramhub.ml;

import java.util.Arrays;

/**
 * 2 x 2 max pooling with stride 2 over channel-major images of an even side; remembers where each
 * maximum came from so that the backward pass routes the gradient there.
 */
final class MaxPool {

    private final int channels;
    private final int side;

    /** Pooling of {@code channels} images of {@code side} x {@code side}; {@code side} must be even. */
    MaxPool(final int channels, final int side) {
        if (side < 2 || side % 2 != 0) {
            throw new IllegalArgumentException("2 x 2 pooling needs an even side >= 2, got " + side);
        }
        this.channels = channels;
        this.side = side;
    }

    int outSide() {
        return side / 2;
    }

    int inputSize() {
        return channels * side * side;
    }

    int outputSize() {
        return channels * outSide() * outSide();
    }

    /** {@code out[i]} = the largest of its 2 x 2 window; {@code from[i]} = that value's index in {@code in}. */
    void forward(final float[] in, final float[] out, final int[] from) {
        final int half = outSide();
        int i = 0;
        for (int c = 0; c < channels; c++) {
            for (int y = 0; y < half; y++) {
                for (int x = 0; x < half; x++) {
                    final int topLeft = (c * side + 2 * y) * side + 2 * x;
                    int best = topLeft;
                    if (in[topLeft + 1] > in[best]) {
                        best = topLeft + 1;
                    }
                    if (in[topLeft + side] > in[best]) {
                        best = topLeft + side;
                    }
                    if (in[topLeft + side + 1] > in[best]) {
                        best = topLeft + side + 1;
                    }
                    out[i] = in[best];
                    from[i] = best;
                    i++;
                }
            }
        }
    }

    /** {@code inDelta} = 0 except {@code inDelta[from[i]] = outDelta[i]}. */
    void backward(final float[] outDelta, final int[] from, final float[] inDelta) {
        Arrays.fill(inDelta, 0, inputSize(), 0f);
        for (int i = 0; i < outputSize(); i++) {
            inDelta[from[i]] += outDelta[i];
        }
    }
}
