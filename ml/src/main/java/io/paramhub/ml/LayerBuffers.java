package io.paramhub.ml;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A dense network's per-call arrays for one gradient computation, kept for the next call: each layer's
 * weights as rows and as columns (overwritten from the parameters every call), its weight and bias
 * gradient sums (zeroed every call), and a block's activations, deltas and dropout masks at every layer
 * boundary (written before they are read, block after block, as within one call). For the default MLP
 * these are three arrays of about 0.9 MB and 0.5 MB of blocks a call; a worker computes a gradient every
 * clock. One set is kept, handed to one call at a time: a call that finds it taken (two threads computing
 * at once) gets a set of its own.
 */
final class LayerBuffers {

    final float[][][] rows;
    final float[][][] columns;
    final float[][][] weightGradients;
    final float[][] biasGradients;
    /** {@code [boundary][sample][unit]} for blocks of up to {@code block} samples, input first. */
    final float[][][] activations;

    final float[][][] deltas;
    /** Null when the network has no dropout. */
    final float[][][] masks;

    private LayerBuffers(final DenseLayer[] layers, final int inputs, final int block, final boolean dropout) {
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
        activations = boundaries(layers, inputs, block);
        deltas = boundaries(layers, inputs, block);
        masks = dropout ? boundaries(layers, inputs, block) : null;
    }

    private static float[][][] boundaries(final DenseLayer[] layers, final int inputs, final int block) {
        final float[][][] arrays = new float[layers.length + 1][][];
        arrays[0] = new float[block][inputs];
        for (int l = 0; l < layers.length; l++) {
            arrays[l + 1] = new float[block][layers[l].outputs()];
        }
        return arrays;
    }

    /**
     * The kept set for {@code layers} over {@code inputs} inputs, blocks of {@code block} samples, with dropout
     * masks or not, or one of its own when another call holds it.
     */
    static LayerBuffers take(
            final AtomicReference<LayerBuffers> kept,
            final DenseLayer[] layers,
            final int inputs,
            final int block,
            final boolean dropout) {
        final LayerBuffers buffers = kept.getAndSet(null);
        return buffers != null ? buffers : new LayerBuffers(layers, inputs, block, dropout);
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
