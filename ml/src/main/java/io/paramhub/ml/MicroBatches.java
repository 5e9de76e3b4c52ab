package io.paramhub.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a pipeline replica cuts its share of a clock's batch into micro-batches: at most {@code count}
 * contiguous pieces in sample order, each but the last a multiple of the model's {@link PipelineModel#block}
 * (so that the stages compute the blocks the whole model would, and the same bits), as even as that allows.
 * A share too small for {@code count} pieces of a block each gets fewer, so pipelining needs shares of
 * {@code count} blocks or more to overlap {@code count} micro-batches.
 */
public final class MicroBatches {

    private MicroBatches() {}

    /**
     * The micro-batches of {@code share}, none of them empty (none at all for an empty share).
     *
     * @throws IllegalArgumentException unless {@code count >= 1} and {@code block >= 1}
     */
    public static List<int[]> split(final int[] share, final int count, final int block) {
        if (count < 1) {
            throw new IllegalArgumentException("need >= 1 micro-batch, got " + count);
        }
        if (block < 1) {
            throw new IllegalArgumentException("need a block of >= 1 sample, got " + block);
        }
        final int blocks = (share.length + block - 1) / block;
        final int pieces = Math.min(count, blocks);
        final List<int[]> micro = new ArrayList<>(pieces);
        int start = 0;
        for (int p = 0; p < pieces; p++) {
            // the blocks not yet given out, shared as evenly as they go among the pieces left
            final int take = (blocks - start / block + (pieces - p) - 1) / (pieces - p);
            final int end = Math.min(share.length, start + take * block);
            micro.add(Arrays.copyOfRange(share, start, end));
            start = end;
        }
        return micro;
    }
}
