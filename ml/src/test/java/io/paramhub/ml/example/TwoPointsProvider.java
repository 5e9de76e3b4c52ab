package io.paramhub.ml.example;

import io.paramhub.ml.DataSpec;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.DatasetProvider;
import io.paramhub.ml.TrainTest;
import java.util.List;
import java.util.Set;

/** A user's data-set provider, found by ServiceLoader in the tests: {@code two-points[:FILE]}, two samples, two classes. */
public final class TwoPointsProvider implements DatasetProvider {

    @Override
    public Set<String> kinds() {
        return Set.of("two-points");
    }

    @Override
    public List<String> forms() {
        return List.of("two-points[:<file>]");
    }

    @Override
    public void check(final DataSpec spec) {
        spec.options(Set.of());
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        final Dataset points = new Dataset("two-points", 1, new float[] {-1, 1}, new float[] {0, 1}, 2);
        return new TrainTest(points, points);
    }
}
