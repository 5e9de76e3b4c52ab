package io.paramhub.ml;

import java.util.Objects;

/** A training set, the held-out set it is evaluated on, and how the provider prepared both ({@link Preprocessing}). */
public record TrainTest(Dataset train, Dataset test, Preprocessing preprocessing) {

    /** Checks that both sets exist and have the same shape. */
    public TrainTest {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(preprocessing, "preprocessing");
        if (train.features() != test.features() || train.classes() != test.classes()) {
            throw new IllegalArgumentException("train " + train + " and test " + test + " differ in shape");
        }
    }

    /** Sets used as they are: no class names, no standardisation. */
    public TrainTest(final Dataset train, final Dataset test) {
        this(train, test, Preprocessing.NONE);
    }
}
