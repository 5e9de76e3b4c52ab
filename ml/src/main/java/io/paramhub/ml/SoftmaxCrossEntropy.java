package io.paramhub.ml;

/**
 * The output layer of the classifiers: softmax over logits, cross-entropy against the label, and
 * the gradient of that loss with respect to the logits, {@code p - onehot(label)}.
 */
final class SoftmaxCrossEntropy {

    private SoftmaxCrossEntropy() {}

    /**
     * Overwrites {@code logits[offset .. offset + classes)} with the loss gradient and returns the
     * loss; stable for any logit magnitude (the maximum is subtracted first).
     */
    static double lossAndDelta(final float[] logits, final int offset, final int classes, final int label) {
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            max = Math.max(max, logits[offset + c]);
        }
        final double labelLogit = logits[offset + label];
        double sum = 0;
        final double[] e = new double[classes];
        for (int c = 0; c < classes; c++) {
            e[c] = Math.exp(logits[offset + c] - max);
            sum += e[c];
        }
        final double inverse = 1.0 / sum;
        for (int c = 0; c < classes; c++) {
            logits[offset + c] = (float) (e[c] * inverse - (c == label ? 1.0 : 0.0));
        }
        return Math.log(sum) - (labelLogit - max);
    }

    /** The index of the largest logit, the first one on ties. */
    static int argmax(final float[] logits, final int offset, final int classes) {
        int best = 0;
        for (int c = 1; c < classes; c++) {
            if (logits[offset + c] > logits[offset + best]) {
                best = c;
            }
        }
        return best;
    }
}
