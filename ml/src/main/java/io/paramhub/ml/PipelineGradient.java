package io.paramhub.ml;

import java.util.List;

/**
 * One replica's gradient computed by a {@link PipelineModel}'s stages in one process, micro-batch by
 * micro-batch, as stage workers compute it through Kafka: each micro-batch forward through the stages,
 * then backward through them in micro-batch order, each stage adding its own parameters' gradient. The
 * in-process reference of a hybrid run ({@link ReferenceTrainer#trainHybrid}) and the tests' yardstick.
 */
public final class PipelineGradient {

    private PipelineGradient() {}

    /** The summed loss and how many activation values (forward) and activation gradients (backward) crossed a cut. */
    public record Result(double loss, long activationsSent, long gradientsSent) {}

    /**
     * Adds to {@code gradientSum} the gradient summed over {@code microBatches} for clock {@code clock} of a
     * job seeded {@code seed}, computed by the model cut into {@code stages} stages.
     */
    public static Result accumulate(
            final PipelineModel model,
            final int stages,
            final float[] params,
            final Dataset data,
            final List<int[]> microBatches,
            final double[] gradientSum,
            final long seed,
            final long clock) {
        final StagePass[] passes = new StagePass[stages];
        for (int k = 0; k < stages; k++) {
            passes[k] = model.stage(k, stages).start(params, seed, clock);
        }
        double loss = 0;
        long sent = 0;
        long returned = 0;
        for (int m = 0; m < microBatches.size(); m++) {
            float[][] activations = null;
            for (int k = 0; k < stages; k++) {
                activations = passes[k].forward(m, data, microBatches.get(m), activations);
                sent += values(activations);
            }
            loss += passes[stages - 1].loss(m);
            float[][] gradient = null;
            for (int k = stages - 1; k >= 0; k--) {
                gradient = passes[k].backward(m, gradient);
                returned += values(gradient);
            }
        }
        for (final StagePass pass : passes) {
            pass.addTo(gradientSum);
        }
        return new Result(loss, sent, returned);
    }

    private static long values(final float[][] matrix) {
        long values = 0;
        if (matrix != null) {
            for (final float[] row : matrix) {
                values += row.length;
            }
        }
        return values;
    }
}
