package io.paramhub.orchestrator.dashboard;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The test sets the dashboard evaluates jobs' models on, by the data set a job names ({@code JobSpec.dataset}):
 * given ones (a demo's data, already in memory), else loaded once through {@link DataSources} on this
 * machine, or the reason there is none ("no test set: ...").
 */
public final class TestSets {

    /** A test set, or why there is none. */
    public record Lookup(Dataset test, String unavailable) {}

    private final Function<String, Dataset> loader;
    private final Map<String, Dataset> given;
    private final Map<String, Lookup> loaded = new ConcurrentHashMap<>();

    private TestSets(final Function<String, Dataset> loader, final Map<String, Dataset> given) {
        this.loader = loader;
        this.given = Map.copyOf(given);
    }

    /** Loads a job's data set on this machine (Fashion-MNIST from its Debian package, generated linear problems). */
    public static TestSets loading() {
        return new TestSets(dataset -> DataSources.load(dataset).test(), Map.of());
    }

    /** No evaluation: every job's test metric says so. */
    public static TestSets none() {
        return new TestSets(
                dataset -> {
                    throw new IllegalStateException("evaluation is off");
                },
                Map.of());
    }

    /** These test sets, with {@code test} for jobs naming {@code dataset} (not loaded again). */
    public TestSets with(final String dataset, final Dataset test) {
        final Map<String, Dataset> more = new ConcurrentHashMap<>(given);
        more.put(dataset, test);
        return new TestSets(loader, more);
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
}
