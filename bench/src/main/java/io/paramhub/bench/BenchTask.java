package io.paramhub.bench;

import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.jobs.TrainingRecipe;
import java.util.Locale;

/**
 * What the bench trains and how it scores a model: {@code linear-rmse} (linear regression on a
 * generated problem, test RMSE, lower is better) or {@code fashion-MODEL} (a model of the demo's,
 * {@code softmax} by default, on the first {@value #FASHION_TRAIN} Fashion-MNIST training images,
 * accuracy on the first {@value #FASHION_TEST} test images, higher is better), with the defaults that
 * make one run of a policy short on a small machine. Linear regression and softmax train with SGD at
 * a constant rate; the other models with their {@link TrainingRecipe}.
 */
public record BenchTask(
        String name,
        String dataset,
        String model,
        String metric,
        boolean lowerIsBetter,
        double defaultTarget,
        int defaultEpochs,
        double defaultLearningRate,
        OptimizerKind optimizer,
        LearningRateScheduleKind schedule,
        TrainTest data) {

    static final String LINEAR = "linear-rmse";
    static final String FASHION_PREFIX = "fashion-";
    static final String FASHION = FASHION_PREFIX + "softmax";
    static final String LINEAR_DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";
    static final int FASHION_TRAIN = 8192;
    static final int FASHION_TEST = 2000;

    /** The task called {@code name}, its data loaded. */
    public static BenchTask load(final String name) {
        return load(name, null);
    }

    /**
     * The task called {@code name} ({@code linear-rmse} when null), or with {@code model} the
     * Fashion-MNIST task with that model ({@code --model mlp} is {@code --task fashion-mlp}); its data loaded.
     *
     * @throws IllegalArgumentException for an unknown task or model, or a model with another task
     */
    public static BenchTask load(final String name, final String model) {
        final String task = name == null ? null : name.trim().toLowerCase(Locale.ROOT);
        if (model != null) {
            final String fashion = FASHION_PREFIX + model.trim().toLowerCase(Locale.ROOT);
            if (task != null && !task.equals(fashion)) {
                throw new IllegalArgumentException(
                        "--model " + model + " trains the Fashion-MNIST task " + fashion + ", not --task " + name
                                + (LINEAR.equals(task) ? " (linear regression has no model to choose)" : ""));
            }
            return load(fashion, null);
        }
        if (task == null || LINEAR.equals(task)) {
            return new BenchTask(
                    LINEAR,
                    LINEAR_DATASET,
                    "linear",
                    "rmse",
                    true,
                    0.15,
                    8,
                    0.002,
                    OptimizerKind.SGD,
                    LearningRateScheduleKind.CONSTANT,
                    DataSources.load(LINEAR_DATASET));
        }
        if (task.startsWith(FASHION_PREFIX) && task.length() > FASHION_PREFIX.length()) {
            final String kind = task.substring(FASHION_PREFIX.length());
            final TrainTest data = fashionSubset();
            final Model instance;
            try {
                instance = Models.forData(kind, data.train());
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException("--task " + name + ": " + e.getMessage(), e);
            }
            final TrainingRecipe recipe = TrainingRecipe.forModel(instance);
            return new BenchTask(
                    task,
                    "fashion-mnist (first " + FASHION_TRAIN + " training, " + FASHION_TEST + " test images)",
                    instance.kind(),
                    "accuracy",
                    false,
                    0.75,
                    3,
                    recipe.learningRate(),
                    recipe.optimizer(),
                    recipe.schedule(),
                    data);
        }
        throw new IllegalArgumentException("--task must be " + LINEAR + " or " + FASHION_PREFIX + "MODEL (e.g. "
                + FASHION + ", " + FASHION_PREFIX + "mlp), not " + name);
    }

    /** A model of this task's shape. */
    public Model newModel() {
        final Dataset train = data.train();
        return Models.forData(model, train);
    }

    /** The metric of {@code params} on the test set. */
    public double evaluate(final Model instance, final float[] params) {
        return lowerIsBetter
                ? Evaluation.rmse(instance, params, data.test())
                : Evaluation.accuracy(instance, params, data.test());
    }

    /** Whether {@code value} reaches {@code target}. */
    public boolean reaches(final double value, final double target) {
        return lowerIsBetter ? value <= target : value >= target;
    }

    private static TrainTest fashionSubset() {
        final TrainTest full = DataSources.load("fashion-mnist");
        return new TrainTest(full.train().head(FASHION_TRAIN), full.test().head(FASHION_TEST));
    }

    /**
     * The data set a job spec names: {@link #dataset} for the linear task, the full Fashion-MNIST the subset is
     * cut from for the others (this JVM's workers get the subset itself from {@link #data}).
     */
    public String dataSpec() {
        return name.startsWith(FASHION_PREFIX) ? DataSources.FASHION_MNIST : dataset;
    }
}
