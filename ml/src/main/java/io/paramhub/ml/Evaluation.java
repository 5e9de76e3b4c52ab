package io.paramhub.ml;

/** Scores a model's parameters on a data set: accuracy, RMSE and mean loss. */
public final class Evaluation {

    private Evaluation() {
    }

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
        final float[] y = data.y();
        int correct = 0;
        for (int i = 0; i < data.size(); i++) {
            if (model.predict(params, data, i) == y[i]) {
                correct++;
            }
        }
        return (double) correct / data.size();
    }

    /** The root mean squared error of the predictions against the targets. */
    public static double rmse(final Model model, final float[] params, final Dataset data) {
        requireNonEmpty(data);
        final float[] y = data.y();
        double sum = 0;
        for (int i = 0; i < data.size(); i++) {
            final double error = (double) model.predict(params, data, i) - y[i];
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

    private static void requireNonEmpty(final Dataset data) {
        if (data.size() == 0) {
            throw new IllegalArgumentException("cannot evaluate on empty data set " + data.name());
        }
    }
}
