package io.paramhub.ml;

import java.util.List;

/** A contiguous range {@code [from, to)} of a model's flat parameter vector, such as the part a pipeline stage owns. */
public record ParameterRange(int from, int to) {

    /** Checks {@code 0 <= from < to}. */
    public ParameterRange {
        if (from < 0 || to <= from) {
            throw new IllegalArgumentException("need 0 <= from < to, got [" + from + ", " + to + ")");
        }
    }

    /** The number of parameters in the range. */
    public int length() {
        return to - from;
    }

    /** Whether {@code index} lies in the range. */
    public boolean contains(final int index) {
        return index >= from && index < to;
    }

    /** The number of parameters in all of {@code ranges}. */
    public static long total(final List<ParameterRange> ranges) {
        long total = 0;
        for (final ParameterRange range : ranges) {
            total += range.length();
        }
        return total;
    }
}
