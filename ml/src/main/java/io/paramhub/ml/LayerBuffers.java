package io.paramhub.ml;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A dense network's per-call arrays for one gradient computation, kept for the next call: each layer's
 * weights as rows and as columns (overwritten from the parameters every call) and its weight and bias
 * gradient sums (zeroed every call). For the default MLP these are three arrays of about 0.9 MB a call;
 * a worker computes a gradient every clock. One set is kept, handed to one call at a time: a call that
 * finds it taken (two threads computing at once) gets a set of its own.
 */
final class LayerBuffers {

    final float[][][] rows;
    final float[][][] columns;
    final float[][][] weightGradients;
    final float[][] biasGradients;

    private LayerBuffers(final DenseLayer[] layers) {
        rows = new float[layers.length][][];
        columns = new float[layers.length][][];
        weightGradients = new float[layers.length][][];
        biasGradients = new float[layers.length][];
        for (int l = 0; l < layers.length; l++) {
            rows[l] = new float[layers[l].outputs()][layers[l].inputs()];
            columns[l] = new float[layers[l].inputs()][layers[l].outputs()];
            weightGradients[l] = new float[layers[l].outputs()][layers[l].inputs()];
            biasGradients[l] = new float[layers[l].outputs()];
        }
    }

    /** The kept set for {@code layers}, or one of its own when another call holds it. */
    static LayerBuffers take(final AtomicReference<LayerBuffers> kept, final DenseLayer[] layers) {
        final LayerBuffers buffers = kept.getAndSet(null);
        return buffers != null ? buffers : new LayerBuffers(layers);
    }

    /** Hands the set back for the next call. */
    void release(final AtomicReference<LayerBuffers> kept) {
        kept.set(this);
    }

    /** Zeroes the gradient sums before a call accumulates into them. */
    LayerBuffers zeroGradients() {
        for (final float[][] gradient : weightGradients) {
            for (final float[] row : gradient) {
                Arrays.fill(row, 0f);
            }
        }
        for (final float[] bias : biasGradients) {
            Arrays.fill(bias, 0f);
        }
        return this;
    }
}
