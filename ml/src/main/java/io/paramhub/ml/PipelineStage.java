package io.paramhub.ml;

import java.util.List;

/**
 * One stage of a {@link PipelineModel} cut into {@link #stages()} stages: which parameters it owns, how
 * wide the per-sample activations it receives and sends are, and a fresh {@link StagePass} per clock.
 * Immutable and thread-safe; each pass is used by one thread.
 */
public interface PipelineStage {

    /** This stage's index, from 0 (the one that reads the samples' features). */
    int index();

    /** The number of stages the model is cut into. */
    int stages();

    /** The parameters this stage reads and computes gradients for: sorted, disjoint ranges. */
    List<ParameterRange> parameters();

    /** Floats per sample received from the previous stage (and whose gradient is sent back); 0 on stage 0. */
    int inputWidth();

    /** Floats per sample sent to the next stage (and whose gradient comes back); 0 on the last stage. */
    int outputWidth();

    /**
     * A pass over the micro-batches of one clock of a job seeded {@code seed}.
     *
     * @param params the model's full parameter vector; only {@link #parameters()} are read, the rest may
     *     hold anything
     */
    StagePass start(float[] params, long seed, long clock);

    /** The number of parameters this stage owns. */
    default long parameterCount() {
        return ParameterRange.total(parameters());
    }

    /**
     * An estimate of this stage's forward multiply-adds per sample, for emulated compute: a dense layer's
     * inputs x outputs, a convolution's output positions x kernel area x input channels x output channels
     * (pooling, activations and the loss are not counted; backward is taken as twice forward on every stage,
     * so only the stages' shares matter). By default the stage's parameter count, which is exact for dense
     * layers but for their biases, and is what a user's model gets unless it says better.
     */
    default long multiplyAdds() {
        return parameterCount();
    }
}
