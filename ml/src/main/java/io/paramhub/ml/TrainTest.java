package io.paramhub.ml;

import java.util.Objects;

/** A training set and the held-out set it is evaluated on. */
public record TrainTest(Dataset train, Dataset test) {

    /** Checks that both sets exist and have the same shape. */
    public TrainTest {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        if (train.features() != test.features() || train.classes() != test.classes()) {
            throw new IllegalArgumentException("train " + train + " and test " + test + " differ in shape");
        }
    }
}
