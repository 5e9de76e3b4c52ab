package io.paramhub.ml;

import java.util.Arrays;

/**
 * The nonzero gradient values of a convolution's output, {@code (channel, position, value)}, as 2 x 2
 * max pooling leaves them: at most one per pooling window. Listed by channel in the order added,
 * and, after {@link #indexByPosition}, by position in order of channel. Reused from sample to sample.
 */
final class SparseDeltas {

    private final int channels;
    private final int positions;
    private final int[] counts;
    private final int[][] channelPositions;
    private final float[][] channelValues;
    private final int[] positionStart;
    private final int[] byPositionChannel;
    private final float[] byPositionValue;
    private final boolean[] present;

    /** Room for {@code channels} channels of {@code positions} positions, at most {@code perChannel} values each. */
    SparseDeltas(final int channels, final int positions, final int perChannel) {
        this.channels = channels;
        this.positions = positions;
        counts = new int[channels];
        channelPositions = new int[channels][perChannel];
        channelValues = new float[channels][perChannel];
        positionStart = new int[positions + 1];
        byPositionChannel = new int[channels * perChannel];
        byPositionValue = new float[channels * perChannel];
        present = new boolean[positions];
    }

    /** Forgets every value. */
    void clear() {
        Arrays.fill(counts, 0);
        Arrays.fill(present, false);
    }

    /** Adds a nonzero value. */
    void add(final int channel, final int position, final float value) {
        final int i = counts[channel]++;
        channelPositions[channel][i] = position;
        channelValues[channel][i] = value;
        present[position] = true;
    }

    int count(final int channel) {
        return counts[channel];
    }

    int position(final int channel, final int i) {
        return channelPositions[channel][i];
    }

    float value(final int channel, final int i) {
        return channelValues[channel][i];
    }

    /** Whether any channel has a value at {@code position}. */
    boolean hasPosition(final int position) {
        return present[position];
    }

    /** Builds the by-position listing from the by-channel one. */
    void indexByPosition() {
        Arrays.fill(positionStart, 0);
        for (int c = 0; c < channels; c++) {
            for (int i = 0; i < counts[c]; i++) {
                positionStart[channelPositions[c][i] + 1]++;
            }
        }
        for (int p = 0; p < positions; p++) {
            positionStart[p + 1] += positionStart[p];
        }
        final int[] next = Arrays.copyOf(positionStart, positions);
        for (int c = 0; c < channels; c++) {
            for (int i = 0; i < counts[c]; i++) {
                final int slot = next[channelPositions[c][i]]++;
                byPositionChannel[slot] = c;
                byPositionValue[slot] = channelValues[c][i];
            }
        }
    }

    /** After {@link #indexByPosition}: how many channels have a value at {@code position}. */
    int countAt(final int position) {
        return positionStart[position + 1] - positionStart[position];
    }

    int channelAt(final int position, final int i) {
        return byPositionChannel[positionStart[position] + i];
    }

    float valueAt(final int position, final int i) {
        return byPositionValue[positionStart[position] + i];
    }
}
