package io.paramhub.orchestrator.dashboard;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.FashionMnist;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The test sets the dashboard evaluates jobs' models on, by the data set a job names ({@code JobSpec.dataset}):
 * given ones (a demo's data, already in memory), else loaded once through {@link DataSources} on this
 * machine, or the reason there is none ("no test set: ..."). It loads only what the orchestrator is configured to
 * read: generated data sets and others that read no file, the built-in {@code fashion-mnist} (its own directory),
 * and files under the directories of {@value #DATA_DIRS_SETTING} (none by default). A job naming any other file
 * gets no evaluation, one log line and that reason on its board, so a spec cannot make the orchestrator read an
 * arbitrary directory. Reads and writes no topic.
 */
public final class TestSets {

    /** Setting ({@code --dashboard-data-dirs}): directories the dashboard may load jobs' test sets from. */
    public static final String DATA_DIRS_SETTING = "paramhub.dashboard.data.dirs";

    private static final Logger log = LoggerFactory.getLogger(TestSets.class);

    /** A test set, or why there is none. */
    public record Lookup(Dataset test, String unavailable) {}

    private final Function<String, Dataset> loader;
    private final UnaryOperator<String> refusal;
    private final Map<String, Dataset> given;
    private final Map<String, Lookup> loaded = new ConcurrentHashMap<>();

    private TestSets(
            final Function<String, Dataset> loader,
            final UnaryOperator<String> refusal,
            final Map<String, Dataset> given) {
        this.loader = loader;
        this.refusal = refusal;
        this.given = Map.copyOf(given);
    }

    /** As {@link #loading(List)} with no data directory: generated data and the built-in Fashion-MNIST only. */
    public static TestSets loading() {
        return loading(List.of());
    }

    /**
     * Loads a job's data set on this machine (Fashion-MNIST from its Debian package, generated linear problems, files
     * under {@code dataDirs}).
     */
    public static TestSets loading(final List<Path> dataDirs) {
        final List<Path> dirs =
                dataDirs.stream().map(dir -> dir.toAbsolutePath().normalize()).toList();
        final List<Path> readable = new ArrayList<>(dirs);
        readable.add(FashionMnist.DEFAULT_DIR);
        final String fashionDir = System.getenv(FashionMnist.DIR_ENV);
        if (fashionDir != null && !fashionDir.isBlank()) {
            readable.add(Path.of(fashionDir).toAbsolutePath().normalize());
        }
        return new TestSets(
                dataset -> DataSources.load(dataset).test(), dataset -> refusal(dataset, dirs, readable), Map.of());
    }

    /** No evaluation: every job's test metric says so. */
    public static TestSets none() {
        return new TestSets(
                dataset -> {
                    throw new IllegalStateException("evaluation is off");
                },
                dataset -> null,
                Map.of());
    }

    /** These test sets, with {@code test} for jobs naming {@code dataset} (not loaded again). */
    public TestSets with(final String dataset, final Dataset test) {
        final Map<String, Dataset> more = new ConcurrentHashMap<>(given);
        more.put(dataset, test);
        return new TestSets(loader, refusal, more);
    }

    /** Forgets the test set loaded for {@code dataset} (no job left names it); a given one stays. */
    public void release(final String dataset) {
        loaded.remove(dataset);
    }

    /** How many loaded test sets are held. */
    int loadedCount() {
        return loaded.size();
    }

    /** The test set of {@code dataset}; loads it on the first call, which may take seconds. */
    public Lookup forDataset(final String dataset) {
        final Dataset known = given.get(dataset);
        if (known != null) {
            return new Lookup(known, null);
        }
        return loaded.computeIfAbsent(dataset, name -> {
            final String refused = refusal.apply(name);
            if (refused != null) {
                log.warn("dashboard evaluates no job naming data set {}: {}", name, refused);
                return new Lookup(null, "no test set: " + refused);
            }
            try {
                final Dataset test = loader.apply(name);
                return test.size() > 0
                        ? new Lookup(test, null)
                        : new Lookup(null, "no test set: " + name + " has no test samples");
            } catch (final RuntimeException e) {
                return new Lookup(null, "no test set: " + e.getMessage());
            }
        });
    }

    /** Why the dashboard may not load {@code dataset}: a file it reads outside {@code readable}; null if it may. */
    private static String refusal(final String dataset, final List<Path> dataDirs, final List<Path> readable) {
        final List<String> files;
        try {
            files = DataSources.files(dataset);
        } catch (final IllegalArgumentException e) {
            return e.getMessage();
        }
        for (final String file : files) {
            Path path;
            try {
                path = Path.of(file).toAbsolutePath().normalize();
            } catch (final InvalidPathException e) {
                path = null;
            }
            if (path == null || readable.stream().noneMatch(path::startsWith)) {
                return dataset + " reads " + file + ", outside the directories the dashboard may read ("
                        + DATA_DIRS_SETTING + ": " + (dataDirs.isEmpty() ? "none" : dataDirs) + ")";
            }
        }
        return null;
    }
}
