package io.paramhub.ml;

/**
 * ReLU followed by 2 x 2 max pooling with stride 2, over channel-major images of an even side (one
 * row per channel in, one flat {@code [channel][row][column]} array out). Since ReLU and the maximum
 * commute, a window's output is {@code max(0, its largest value)}; the pooling remembers where that
 * value came from, so the backward pass routes the gradient there, and only where the output is
 * positive (the unit was on).
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

    int outputSize() {
        return channels * outSide() * outSide();
    }

    /**
     * {@code out[i] = max(0, largest value of window i)} and {@code from[i]} = the position of that
     * value within its channel's image (the first of equal values, in the order top left, top right,
     * bottom left, bottom right).
     */
    void forward(final float[][] in, final float[] out, final int[] from) {
        final int half = outSide();
        int i = 0;
        for (int c = 0; c < channels; c++) {
            final float[] image = in[c];
            for (int y = 0; y < half; y++) {
                for (int x = 0; x < half; x++) {
                    final int topLeft = 2 * y * side + 2 * x;
                    final float a = image[topLeft];
                    final float b = image[topLeft + 1];
                    final float c2 = image[topLeft + side];
                    final float d = image[topLeft + side + 1];
                    // branch-free where C2 allows (maxss, setcc): which of four is largest is data, not a pattern
                    final float top = Math.max(a, b);
                    final float bottom = Math.max(c2, d);
                    final int topAt = topLeft + (b > a ? 1 : 0);
                    final int bottomAt = topLeft + side + (d > c2 ? 1 : 0);
                    out[i] = Math.max(0f, Math.max(top, bottom));
                    from[i] = bottom > top ? bottomAt : topAt;
                    i++;
                }
            }
        }
    }

    /**
     * The gradient at the pooled-over images as sparse values: {@code outDelta[i]} at {@code from[i]}
     * wherever the output {@code out[i]} is positive and {@code outDelta[i]} is not 0.
     */
    void backward(final float[] out, final float[] outDelta, final int[] from, final SparseDeltas deltas) {
        deltas.clear();
        final int perChannel = outSide() * outSide();
        int i = 0;
        for (int c = 0; c < channels; c++) {
            for (int j = 0; j < perChannel; j++, i++) {
                if (out[i] > 0f && outDelta[i] != 0f) {
                    deltas.add(c, from[i], outDelta[i]);
                }
            }
        }
    }
}
