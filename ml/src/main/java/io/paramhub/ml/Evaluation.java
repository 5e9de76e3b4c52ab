package io.paramhub.ml;

import java.util.stream.IntStream;

/**
 * Scores a model's parameters on a data set: accuracy, RMSE and mean loss.
 *
 * <p>Accuracy and RMSE predict the samples in parallel (models are thread-safe) and then combine the
 * per-sample results in sample order, so that the figure does not depend on the number of threads.
 */
public final class Evaluation {

    /** Samples a task predicts together: few enough ranges to share out, many samples per range. */
    private static final int RANGE = 1024;

    private Evaluation() {}

    /**
     * The fraction of samples whose predicted class equals the label.
     *
     * @throws IllegalArgumentException if the data set is not a classification set or is empty
     */
    public static double accuracy(final Model model, final float[] params, final Dataset data) {
        if (!data.isClassification()) {
            throw new IllegalArgumentException("accuracy needs a classification data set, got " + data);
        }
        requireNonEmpty(data);
        final float[] predictions = predictions(model, params, data);
        final float[] y = data.y();
        int correct = 0;
        for (int i = 0; i < predictions.length; i++) {
            if (predictions[i] == y[i]) {
                correct++;
            }
        }
        return (double) correct / data.size();
    }

    /** The root mean squared error of the predictions against the targets. */
    public static double rmse(final Model model, final float[] params, final Dataset data) {
        requireNonEmpty(data);
        final float[] predictions = predictions(model, params, data);
        final float[] y = data.y();
        double sum = 0;
        for (int i = 0; i < predictions.length; i++) {
            final double error = (double) predictions[i] - y[i];
            sum += error * error;
        }
        return Math.sqrt(sum / data.size());
    }

    /** The model's training loss averaged over all samples. */
    public static double meanLoss(final Model model, final float[] params, final Dataset data) {
        requireNonEmpty(data);
        final int[] all = new int[data.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        final double[] scratch = new double[model.parameterCount()];
        return model.accumulateGradient(params, data, all, scratch) / data.size();
    }

    /** Every sample's prediction, computed in ranges of {@link #RANGE} samples on the common fork-join pool. */
    private static float[] predictions(final Model model, final float[] params, final Dataset data) {
        final float[] predictions = new float[data.size()];
        final int ranges = (predictions.length + RANGE - 1) / RANGE;
        IntStream.range(0, ranges)
                .parallel()
                .forEach(range -> model.predict(
                        params, data, range * RANGE, Math.min(predictions.length, (range + 1) * RANGE), predictions));
        return predictions;
    }

    private static void requireNonEmpty(final Dataset data) {
        if (data.size() == 0) {
            throw new IllegalArgumentException("cannot evaluate on empty data set " + data.name());
        }
    }
}
