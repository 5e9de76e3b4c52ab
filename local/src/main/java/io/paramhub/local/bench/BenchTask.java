package io.paramhub.local.bench;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.TrainTest;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the bench trains and how it scores a model: {@code linear-rmse} (linear regression on a
 * generated problem, test RMSE, lower is better) or {@code fashion-softmax} (softmax regression on
 * the first {@value #FASHION_TRAIN} Fashion-MNIST training images, accuracy on the first
 * {@value #FASHION_TEST} test images, higher is better), with the defaults that make one run of a
 * policy short on a small machine.
 */
public record BenchTask(String name, String dataset, String model, String metric, boolean lowerIsBetter,
                        double defaultTarget, int defaultEpochs, double defaultLearningRate, TrainTest data) {

    static final String LINEAR = "linear-rmse";
    static final String FASHION = "fashion-softmax";
    static final String LINEAR_DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";
    static final int FASHION_TRAIN = 8192;
    static final int FASHION_TEST = 2000;

    /** The task called {@code name}, its data loaded. */
    public static BenchTask load(final String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case LINEAR -> new BenchTask(LINEAR, LINEAR_DATASET, "linear", "rmse", true, 0.15, 8, 0.002,
                DataSources.load(LINEAR_DATASET));
            case FASHION -> new BenchTask(FASHION, "fashion-mnist (first " + FASHION_TRAIN + " training, "
                + FASHION_TEST + " test images)", "softmax", "accuracy", false, 0.75, 3, 0.05, fashionSubset());
            default -> throw new IllegalArgumentException("--task must be " + LINEAR + " or " + FASHION + ", not "
                + name);
        };
    }

    /** A model of this task's shape. */
    public Model newModel() {
        final Dataset train = data.train();
        return Models.forData(model, train);
    }

    /** The metric of {@code params} on the test set. */
    public double evaluate(final Model instance, final float[] params) {
        return lowerIsBetter ? Evaluation.rmse(instance, params, data.test())
            : Evaluation.accuracy(instance, params, data.test());
    }

    /** Whether {@code value} reaches {@code target}. */
    public boolean reaches(final double value, final double target) {
        return lowerIsBetter ? value <= target : value >= target;
    }

    private static TrainTest fashionSubset() {
        final TrainTest full = DataSources.load("fashion-mnist");
        return new TrainTest(head(full.train(), FASHION_TRAIN), head(full.test(), FASHION_TEST));
    }

    private static Dataset head(final Dataset data, final int samples) {
        final int kept = Math.min(samples, data.size());
        return new Dataset(data.name() + "-head" + kept, data.features(),
            Arrays.copyOf(data.x(), kept * data.features()), Arrays.copyOf(data.y(), kept), data.classes());
    }
}
