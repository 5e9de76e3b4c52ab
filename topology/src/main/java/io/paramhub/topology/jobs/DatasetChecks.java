package io.paramhub.topology.jobs;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.FashionMnist;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks the data set a job names before anyone loads it: a known kind ({@link DataSources#FORMS}), a
 * generated linear problem of bounded size, and a Fashion-MNIST directory only inside an allowed root
 * (no {@code ..}, no relative path), since every worker and the dashboard open the files a job names.
 * Reads and writes no topic.
 */
public final class DatasetChecks {

    /** Samples x features a generated linear problem may have: 2^26 floats, 256 MiB. */
    public static final long MAX_LINEAR_VALUES = 1L << 26;

    private DatasetChecks() {}

    /**
     * The roots a Fashion-MNIST directory may lie under: the parent of {@link FashionMnist#DEFAULT_DIR}
     * ({@code /usr/share/datasets}) and {@code $PARAMHUB_FASHION_MNIST_DIR} when set.
     */
    public static List<Path> defaultRoots() {
        final List<Path> roots = new ArrayList<>();
        roots.add(FashionMnist.DEFAULT_DIR.getParent());
        final String override = System.getenv(FashionMnist.DIR_ENV);
        if (override != null && !override.isBlank()) {
            try {
                roots.add(Path.of(override).toAbsolutePath().normalize());
            } catch (final InvalidPathException e) {
                // an unusable setting allows nothing more
            }
        }
        return roots;
    }

    /** What is wrong with {@code dataset}, one sentence a problem; empty when it may be loaded. */
    public static List<String> problems(final String dataset, final List<Path> allowedRoots) {
        final List<String> problems = new ArrayList<>();
        if (dataset == null || dataset.isBlank()) {
            problems.add("dataset is empty; expected one of: " + DataSources.FORMS);
            return problems;
        }
        if (DataSources.isFashionMnist(dataset)) {
            final String dir = DataSources.fashionMnistDir(dataset);
            if (!dir.isEmpty()) {
                directoryProblem(dir, allowedRoots).ifPresent(problems::add);
            }
            return problems;
        }
        try {
            final DataSources.LinearShape shape = DataSources.linearShape(dataset);
            if (shape.samples() < 2 || shape.features() < 1) {
                problems.add("dataset '" + dataset + "' needs n >= 2 and d >= 1");
            } else if ((long) shape.samples() * shape.features() > MAX_LINEAR_VALUES) {
                problems.add("dataset '" + dataset + "' has n x d = " + (long) shape.samples() * shape.features()
                        + " values, more than the " + MAX_LINEAR_VALUES + " allowed");
            }
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return problems;
    }

    private static Optional<String> directoryProblem(final String dir, final List<Path> allowedRoots) {
        final Path path;
        try {
            path = Path.of(dir);
        } catch (final InvalidPathException e) {
            return Optional.of("dataset directory '" + dir + "' is not a path: " + e.getMessage());
        }
        if (!path.isAbsolute()) {
            return Optional.of("dataset directory '" + dir + "' must be an absolute path");
        }
        for (final Path part : path) {
            if (part.toString().equals("..") || part.toString().equals(".")) {
                return Optional.of("dataset directory '" + dir + "' must not contain . or .. segments");
            }
        }
        final Path normalized = path.normalize();
        if (allowedRoots.stream()
                .noneMatch(root -> normalized.startsWith(root.toAbsolutePath().normalize()))) {
            return Optional.of("dataset directory '" + dir + "' is outside the allowed roots " + allowedRoots + " (set "
                    + FashionMnist.DIR_ENV + " to allow another)");
        }
        return Optional.empty();
    }
}
