package io.paramhub.ml;

/**
 * What precision a worker ships its gradient in: {@link #FLOAT32}, exact (the default), or
 * {@link #BFLOAT16}, half the bytes, rounded with error feedback ({@link Bfloat16ErrorFeedback}).
 */
public enum GradientPrecision {
    FLOAT32,
    BFLOAT16;

    /** A fresh per-worker rounding of gradients of {@code length} values into this precision. */
    public GradientRounding rounding(final int length) {
        return this == BFLOAT16 ? new Bfloat16ErrorFeedback(length) : values -> values;
    }
}
