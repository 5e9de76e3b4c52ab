package io.paramhub.topology.jobs;

import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.ml.ConvNet;
import io.paramhub.ml.Mlp;
import io.paramhub.ml.Model;

/**
 * How a model trains when the user names nothing else: optimizer, learning rate and its schedule. The
 * convex models use SGD with momentum at a constant rate; the networks use Adam, whose per-parameter
 * step sizes suit their layers, with the rate annealed by a cosine to 0 over the job, which measured
 * 0.003–0.02 better test accuracy than a constant rate for the same epochs (docs/models.md). {@link JobRecipe}
 * applies it where the user chose no optimizer, rate or schedule.
 */
public record TrainingRecipe(OptimizerKind optimizer, double learningRate, LearningRateScheduleKind schedule) {

    /** SGD's rate when no recipe or user gives one. */
    public static final double SGD_LEARNING_RATE = 0.05;
    /** Adam's rate when no recipe or user gives one. */
    public static final double ADAM_LEARNING_RATE = 0.001;

    /** The recipe of {@code model}'s kind, with or without a shape suffix. */
    public static TrainingRecipe forModel(final Model model) {
        final String base = model.kind().split(":", 2)[0];
        if (Mlp.KIND.equals(base)) {
            return new TrainingRecipe(OptimizerKind.ADAM, 0.002, LearningRateScheduleKind.COSINE);
        }
        if (ConvNet.KIND.equals(base)) {
            return new TrainingRecipe(OptimizerKind.ADAM, 0.001, LearningRateScheduleKind.COSINE);
        }
        return new TrainingRecipe(OptimizerKind.SGD, SGD_LEARNING_RATE, LearningRateScheduleKind.CONSTANT);
    }

    /**
     * The rate for {@code chosen}: this recipe's when it is the recipe's optimizer, else that optimizer's
     * plain default.
     */
    public double learningRate(final OptimizerKind chosen) {
        if (chosen == optimizer) {
            return learningRate;
        }
        return chosen == OptimizerKind.ADAM ? ADAM_LEARNING_RATE : SGD_LEARNING_RATE;
    }
}
