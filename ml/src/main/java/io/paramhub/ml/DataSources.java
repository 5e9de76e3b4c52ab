package io.paramhub.ml;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Turns a data spec string ({@code kind[:arguments]}, as on a command line or in a job's {@code dataset}) into
 * data, through the {@link DatasetProvider} of its kind: the single loader and checker that workers, the
 * aggregator's checks, the evaluators and the dashboard share, so that they agree on the data. Built in
 * (docs/data.md):
 * <ul>
 *   <li>{@code fashion-mnist} or {@code fashion-mnist:/some/dir} ({@link FashionMnist});</li>
 *   <li>{@code linear} or {@code linear:n=4096,d=16,noise=0.1,seed=7}: a generated {@link LinearProblem};</li>
 *   <li>{@code csv:PATH,...} ({@link CsvProvider}), {@code idx:IMAGES,LABELS,...} ({@link IdxProvider}) and
 *       {@code avro:PATH,features=...} ({@link AvroProvider}): files of your own;</li>
 *   <li>{@code topic:NAME,features=...} ({@link TopicSpec}): a Kafka topic the workers stream, never loaded;</li>
 * </ul>
 * and the kinds of every {@link DatasetProvider} on the classpath or in a plugin jar ({@link Plugins}).
 */
public final class DataSources {

    /** The kind of Fashion-MNIST. */
    public static final String FASHION_MNIST = "fashion-mnist";

    private static final List<DatasetProvider> BUILT_IN = List.of(
            new FashionMnistProvider(),
            new LinearProvider(),
            new CsvProvider(),
            new IdxProvider(),
            new AvroProvider(),
            new TopicProvider());

    private DataSources() {}

    /**
     * The training and test sets a spec names.
     *
     * @throws IllegalArgumentException for a spec no provider reads, or one its provider refuses
     * @throws DataFileException for a file that cannot be read or holds bad data
     * @throws DatasetUnavailableException if Fashion-MNIST is asked for and not installed
     */
    public static TrainTest load(final String spec) {
        final DataSpec parsed = DataSpec.parse(spec);
        final DatasetProvider provider = provider(parsed.kind(), spec);
        provider.check(parsed);
        return provider.load(parsed);
    }

    /**
     * The files a spec reads (its provider's paths, as written), after checking its form without reading any.
     *
     * @throws IllegalArgumentException for a spec no provider reads, or one its provider refuses
     */
    public static List<String> files(final String spec) {
        final DataSpec parsed = DataSpec.parse(spec);
        final DatasetProvider provider = provider(parsed.kind(), spec);
        provider.check(parsed);
        return provider.readsFiles() ? parsed.paths(provider.pathKeys()) : List.of();
    }

    /**
     * {@code spec} with every relative path it names resolved against {@code dir} and normalised, as a job that
     * other processes load must carry it.
     *
     * @throws IllegalArgumentException for a spec no provider reads, or a path that is not one
     */
    public static String resolve(final String spec, final Path dir) {
        final DataSpec parsed = DataSpec.parse(spec);
        final DatasetProvider provider = provider(parsed.kind(), spec);
        if (!provider.readsFiles()) {
            return parsed.toString();
        }
        return parsed.mapPaths(provider.pathKeys(), path -> {
                    try {
                        return dir.resolve(path).toAbsolutePath().normalize().toString();
                    } catch (final InvalidPathException e) {
                        throw new IllegalArgumentException("data spec '" + spec + "': '" + path + "' is not a path", e);
                    }
                })
                .toString();
    }

    /** The forms every provider accepts, for messages. */
    public static String forms() {
        final List<String> forms = new ArrayList<>();
        for (final DatasetProvider provider : providers()) {
            forms.addAll(provider.forms());
        }
        return String.join(", ", forms);
    }

    /**
     * The linear problem a {@code linear[:key=value,...]} spec names, with its optimum.
     *
     * @throws IllegalArgumentException for any other spec, an unknown key or a malformed value
     */
    public static LinearProblem linearProblem(final String spec) {
        final DataSpec parsed = DataSpec.parse(spec);
        new LinearProvider().check(parsed);
        return LinearProvider.problem(parsed);
    }

    private static DatasetProvider provider(final String kind, final String spec) {
        for (final DatasetProvider provider : providers()) {
            if (provider.kinds().contains(kind)) {
                return provider;
            }
        }
        throw new IllegalArgumentException("unknown data spec '" + spec + "', expected one of: " + forms());
    }

    /**
     * The built-in providers, then those on the classpath and in plugin jars ({@link ServiceLoader} over
     * {@link Plugins#classLoader}), which cannot override them.
     */
    private static List<DatasetProvider> providers() {
        final List<DatasetProvider> providers = new ArrayList<>(BUILT_IN);
        for (final DatasetProvider provider : ServiceLoader.load(DatasetProvider.class, Plugins.classLoader())) {
            providers.add(provider);
        }
        return providers;
    }
}
