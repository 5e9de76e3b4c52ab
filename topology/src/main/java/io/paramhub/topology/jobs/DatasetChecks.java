package io.paramhub.topology.jobs;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.FashionMnist;
import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks the data set a job names before anyone loads it, through the provider of its kind
 * ({@link DataSources#files}): a known kind, a well-formed spec of bounded size, and every file it reads only
 * inside an allowed root (absolute, no {@code .} or {@code ..}), since every worker and the dashboard open the
 * files a job names. Reads no file and no topic.
 */
public final class DatasetChecks {

    /** Environment variable: more data roots, absolute paths separated by {@code :}. */
    public static final String ROOTS_ENV = "PARAMHUB_DATA_ROOTS";
    /** System property: more data roots, as {@link #ROOTS_ENV}; {@code paramhub demo} adds the files it is given. */
    public static final String ROOTS_PROPERTY = "paramhub.data.roots";

    private DatasetChecks() {}

    /**
     * The roots a data file may lie under: the parent of {@link FashionMnist#DEFAULT_DIR}
     * ({@code /usr/share/datasets}), {@code $PARAMHUB_FASHION_MNIST_DIR}, and each absolute path in
     * {@code $PARAMHUB_DATA_ROOTS} and in the system property {@code paramhub.data.roots}. A relative or
     * malformed entry allows nothing.
     */
    public static List<Path> defaultRoots() {
        final List<Path> roots = new ArrayList<>();
        roots.add(FashionMnist.DEFAULT_DIR.getParent());
        addRoots(roots, System.getenv(FashionMnist.DIR_ENV));
        addRoots(roots, System.getenv(ROOTS_ENV));
        addRoots(roots, System.getProperty(ROOTS_PROPERTY));
        return roots;
    }

    private static void addRoots(final List<Path> roots, final String setting) {
        if (setting == null || setting.isBlank()) {
            return;
        }
        for (final String entry : setting.split(File.pathSeparator)) {
            try {
                final Path root = Path.of(entry.trim());
                if (!entry.isBlank() && root.isAbsolute()) {
                    roots.add(root.normalize());
                }
            } catch (final InvalidPathException e) {
                // an unusable entry allows nothing more
            }
        }
    }

    /** What is wrong with {@code dataset}, one sentence a problem; empty when it may be loaded. */
    public static List<String> problems(final String dataset, final List<Path> allowedRoots) {
        final List<String> problems = new ArrayList<>();
        if (dataset == null || dataset.isBlank()) {
            problems.add("dataset is empty; expected one of: " + DataSources.forms());
            return problems;
        }
        try {
            for (final String file : DataSources.files(dataset)) {
                pathProblem(file, allowedRoots).ifPresent(problems::add);
            }
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return problems;
    }

    private static Optional<String> pathProblem(final String file, final List<Path> allowedRoots) {
        final Path path;
        try {
            path = Path.of(file);
        } catch (final InvalidPathException e) {
            return Optional.of("dataset path '" + file + "' is not a path: " + e.getMessage());
        }
        if (!path.isAbsolute()) {
            return Optional.of("dataset path '" + file + "' must be an absolute path");
        }
        for (final Path part : path) {
            if (part.toString().equals("..") || part.toString().equals(".")) {
                return Optional.of("dataset path '" + file + "' must not contain . or .. segments");
            }
        }
        final Path normalized = path.normalize();
        if (allowedRoots.stream()
                .noneMatch(root -> normalized.startsWith(root.toAbsolutePath().normalize()))) {
            return Optional.of("dataset path '" + file + "' is outside the allowed roots " + allowedRoots + " (set "
                    + ROOTS_ENV + " to allow another)");
        }
        return Optional.empty();
    }
}
