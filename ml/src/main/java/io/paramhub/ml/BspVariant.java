package io.paramhub.ml;

/**
 * How a BSP job's workers depart from plain BSP, both opt-in: the precision they ship gradients in, and
 * the pipeline depth d (clock c computed on the model of version max(0, c - d) instead of c).
 */
public record BspVariant(GradientPrecision precision, int pipelineDepth) {

    /** Plain BSP: float32 gradients, clock c on version c. */
    public static final BspVariant PLAIN = new BspVariant(GradientPrecision.FLOAT32, 0);

    public BspVariant {
        if (precision == null) {
            throw new IllegalArgumentException("precision must be given");
        }
        if (pipelineDepth < 0) {
            throw new IllegalArgumentException("pipeline depth must be >= 0, not " + pipelineDepth);
        }
    }

    /** The version clock {@code clock} is computed on. */
    public long baseVersion(final long clock) {
        return Math.max(0, clock - pipelineDepth);
    }
}
