package io.paramhub.ml;

import java.util.Arrays;
import java.util.List;

/**
 * What a data set's provider did to the file's values before a model saw them, which anyone who feeds the
 * trained model (a service consuming {@code model}, an evaluator) must do too: the class of each label (index i
 * is {@code classLabels[i]}; empty when the labels are the class indices themselves, or for regression) and the
 * standardisation of each feature, {@code (x - mean) / scale} (empty arrays when the features are used as they
 * are). Computed from the training set alone, deterministically, by whoever loads the data set.
 */
public record Preprocessing(List<String> classLabels, double[] mean, double[] scale) {

    /** Nothing done: labels are class indices or targets, features are used as they are. */
    public static final Preprocessing NONE = new Preprocessing(List.of(), new double[0], new double[0]);

    /** Copies the arrays and checks that mean and scale have one value per feature each. */
    public Preprocessing {
        classLabels = List.copyOf(classLabels);
        mean = mean.clone();
        scale = scale.clone();
        if (mean.length != scale.length) {
            throw new IllegalArgumentException(
                    "standardisation has " + mean.length + " means and " + scale.length + " scales");
        }
    }

    /** Whether the features are standardised. */
    public boolean standardized() {
        return mean.length > 0;
    }

    /** The means, a copy. */
    @Override
    public double[] mean() {
        return mean.clone();
    }

    /** The scales (spreads; 1 for a constant feature), a copy. */
    @Override
    public double[] scale() {
        return scale.clone();
    }

    /**
     * A raw row of features as the model takes it: standardised when this says so, else cast to float.
     *
     * @throws IllegalArgumentException if the row has a different number of features than the standardisation
     */
    public float[] features(final double[] raw) {
        if (standardized() && raw.length != mean.length) {
            throw new IllegalArgumentException(
                    "a row of " + raw.length + " features, the standardisation has " + mean.length);
        }
        final float[] out = new float[raw.length];
        for (int j = 0; j < raw.length; j++) {
            out[j] = standardized() ? (float) ((raw[j] - mean[j]) / scale[j]) : (float) raw[j];
        }
        return out;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Preprocessing that
                && classLabels.equals(that.classLabels)
                && Arrays.equals(mean, that.mean)
                && Arrays.equals(scale, that.scale);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * classLabels.hashCode() + Arrays.hashCode(mean)) + Arrays.hashCode(scale);
    }

    @Override
    public String toString() {
        return "Preprocessing[classLabels=" + classLabels + ", standardized=" + standardized() + "]";
    }
}
