package io.paramhub.ml;

/**
 * One pipeline stage's work on the micro-batches of one clock: forward each micro-batch (in any order the
 * pipeline delivers them, numbered from 0), then backward each in ascending order, then add the summed
 * gradient of the stage's parameters to a gradient sum. Activations and their gradients are
 * {@code [sample][value]} matrices, one row per sample of the micro-batch, {@link PipelineStage#inputWidth()}
 * or {@link PipelineStage#outputWidth()} wide. Keeps each micro-batch's activations from its forward to its
 * backward. Not thread-safe.
 */
public interface StagePass {

    /**
     * Forward of micro-batch {@code micro}.
     *
     * @param samples the micro-batch's indices into {@code data}
     * @param in the previous stage's activations for these samples; {@code null} on stage 0
     * @return the activations for the next stage; {@code null} on the last stage
     */
    float[][] forward(int micro, Dataset data, int[] samples, float[][] in);

    /** The loss summed over the micro-batch, known on the last stage after its forward; 0 on the others. */
    double loss(int micro);

    /**
     * Backward of micro-batch {@code micro}, which must be the lowest not yet run; its parameter gradients are
     * added to this pass's sums.
     *
     * @param outGradient the gradient of the loss by this stage's output, from the next stage; {@code null}
     *     on the last stage
     * @return the gradient of the loss by this stage's input, for the previous stage; {@code null} on stage 0
     */
    float[][] backward(int micro, float[][] outGradient);

    /** Adds the gradient summed over every micro-batch run backward to {@code gradientSum} (the model's full length). */
    void addTo(double[] gradientSum);
}
