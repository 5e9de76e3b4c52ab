package io.paramhub.ml;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code fashion-mnist} (from {@link FashionMnist#load()}: {@code $PARAMHUB_FASHION_MNIST_DIR}, else Debian's
 * package) or {@code fashion-mnist:DIR}, a directory holding the four files of that name.
 */
final class FashionMnistProvider implements DatasetProvider {

    @Override
    public Set<String> kinds() {
        return Set.of(DataSources.FASHION_MNIST);
    }

    @Override
    public List<String> forms() {
        return List.of("fashion-mnist", "fashion-mnist:<dir>");
    }

    @Override
    public void check(final DataSpec spec) {
        final DataOptions options = spec.options(Set.of());
        if (spec.positional().size() > 1) {
            throw options.problem("expected at most one directory, as in fashion-mnist:/data/fashion");
        }
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        check(spec);
        return spec.positional().isEmpty()
                ? FashionMnist.load()
                : FashionMnist.load(Path.of(spec.positional().get(0)));
    }
}
