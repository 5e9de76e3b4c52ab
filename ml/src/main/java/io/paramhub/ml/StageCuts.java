package io.paramhub.ml;

import java.util.Arrays;

/**
 * Where to cut a chain of layers into pipeline stages: contiguous, non-empty groups of layers whose
 * largest parameter count is as small as it can be (ties go to the cut with the earliest boundaries), so
 * that no stage worker holds more of the model than it must.
 */
final class StageCuts {

    private StageCuts() {}

    /**
     * The boundaries of {@code stages} groups of the layers whose sizes are {@code sizes}: stage {@code k}
     * holds layers {@code [b[k], b[k + 1])}, {@code b[0] = 0}, {@code b[stages] = sizes.length}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= stages <= sizes.length}
     */
    static int[] balanced(final long[] sizes, final int stages) {
        final int layers = sizes.length;
        if (stages < 1 || stages > layers) {
            throw new IllegalArgumentException(
                    "can cut " + layers + " layers into 1 to " + layers + " stages, not " + stages);
        }
        final long[] prefix = new long[layers + 1];
        for (int l = 0; l < layers; l++) {
            prefix[l + 1] = prefix[l] + sizes[l];
        }
        // best[k][l]: the smallest largest stage of layers [0, l) cut into k stages; from[k][l] its last cut
        final long[][] best = new long[stages + 1][layers + 1];
        final int[][] from = new int[stages + 1][layers + 1];
        for (final long[] row : best) {
            Arrays.fill(row, Long.MAX_VALUE);
        }
        best[0][0] = 0;
        for (int k = 1; k <= stages; k++) {
            for (int l = k; l <= layers; l++) {
                for (int cut = k - 1; cut < l; cut++) {
                    if (best[k - 1][cut] == Long.MAX_VALUE) {
                        continue;
                    }
                    final long largest = Math.max(best[k - 1][cut], prefix[l] - prefix[cut]);
                    if (largest < best[k][l]) {
                        best[k][l] = largest;
                        from[k][l] = cut;
                    }
                }
            }
        }
        final int[] bounds = new int[stages + 1];
        bounds[stages] = layers;
        for (int k = stages; k > 0; k--) {
            bounds[k - 1] = from[k][bounds[k]];
        }
        return bounds;
    }
}
