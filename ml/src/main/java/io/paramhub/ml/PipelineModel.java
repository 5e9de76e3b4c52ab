package io.paramhub.ml;

/**
 * A {@link Model} that can be cut into pipeline stages for hybrid data and model parallel training:
 * stage {@code k} of {@code S} owns some of the parameters ({@link PipelineStage#parameters}), receives
 * per-sample activations from stage {@code k - 1}, sends its own to stage {@code k + 1}, and on the way
 * back receives the gradient of what it sent and returns the gradient of what it received, adding the
 * gradient of its own parameters to the gradient sum.
 *
 * <p>The contract that lets a pipelined run be compared with a single-process one: for any samples,
 * micro-batches and stage count, the stages' parameter gradients together are the gradient
 * {@link Model#accumulateGradient(float[], Dataset, int[], double[], long, long)} gives for the same
 * samples, seed and clock: the same training-time randomness (dropout masks drawn from seed, clock and
 * sample), and the same bits wherever the cut does not change a summation order, provided every
 * micro-batch but the last of a pass is a multiple of {@link #block()} samples. A user's model opts in by
 * implementing this interface next to {@link Model} (its {@link ModelProvider} returns it as usual);
 * docs/models.md says how the built-in networks are cut.
 */
public interface PipelineModel extends Model {

    /** The most stages this model can be cut into; at least 1. */
    int maxStages();

    /**
     * The number of samples the model computes together: micro-batches of a multiple of it give the
     * single-stage gradient's blocks, and so its bits; 1 for a model that computes sample by sample.
     */
    int block();

    /**
     * Stage {@code stage} of this model cut into {@code stages} stages.
     *
     * @throws IllegalArgumentException unless {@code 1 <= stages <= maxStages()} and {@code 0 <= stage < stages}
     */
    PipelineStage stage(int stage, int stages);

    /**
     * Stage {@code stage}'s share of the model's compute per sample when cut into {@code stages} stages:
     * its {@link PipelineStage#multiplyAdds()} over the sum of all stages'. The shares of the stages add up
     * to 1; emulated compute charges a stage worker this share of a sample's cost.
     *
     * @throws IllegalArgumentException as {@link #stage} does
     */
    default double computeShare(final int stage, final int stages) {
        final PipelineStage own = stage(stage, stages);
        long total = 0;
        for (int k = 0; k < stages; k++) {
            total += stage(k, stages).multiplyAdds();
        }
        return total == 0 ? 1.0 / stages : (double) own.multiplyAdds() / total;
    }
}
