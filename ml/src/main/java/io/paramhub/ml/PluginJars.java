package io.paramhub.ml;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The jars of one or more plugin directories ({@code --plugins}, {@code PARAMHUB_PLUGINS}) in one class loader
 * for {@link Plugins#install}, and which {@link ModelProvider}s and {@link DatasetProvider}s each jar brings (its
 * {@code META-INF/services} entries, loaded and asked for their kinds). Every {@code *.jar} directly in a
 * directory counts, in name order; a directory without jars is fine. A missing directory, a jar that cannot be
 * read and a provider that cannot be loaded are errors that name them, raised here, at start-up, rather than when
 * the first job of the kind arrives.
 */
public final class PluginJars {

    private static final String SERVICES = "META-INF/services/";

    private final ClassLoader classLoader;
    private final List<Jar> jars;

    private PluginJars(final ClassLoader classLoader, final List<Jar> jars) {
        this.classLoader = classLoader;
        this.jars = List.copyOf(jars);
    }

    /** One provider a jar lists: its class, whether it makes models or data sets, and its kinds. */
    public record Provider(String className, boolean model, List<String> kinds) {

        @Override
        public String toString() {
            return (model ? "model kinds " : "data set kinds ") + kinds + " (" + className + ")";
        }
    }

    /** One plugin jar and the providers it lists. */
    public record Jar(Path path, List<Provider> providers) {

        /** One line for the log: the jar, then each provider's kinds and class, or that it brings none. */
        public String describe() {
            return "plugin jar " + path + ": "
                    + (providers.isEmpty()
                            ? "no model or data set providers (a library of the others?)"
                            : String.join(
                                    ", ",
                                    providers.stream().map(Provider::toString).toList()));
        }
    }

    /**
     * Opens every jar of {@code dirs} into one class loader whose parent is ParamHub's own.
     *
     * @throws IllegalArgumentException naming a directory that is missing or not a directory, a jar that cannot be
     *     read, or a provider that cannot be loaded
     */
    public static PluginJars open(final List<Path> dirs) {
        final List<Path> paths = new ArrayList<>();
        for (final Path dir : dirs) {
            paths.addAll(jarsIn(dir));
        }
        final URL[] urls = new URL[paths.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = url(paths.get(i));
        }
        final URLClassLoader loader = new URLClassLoader("paramhub-plugins", urls, PluginJars.class.getClassLoader());
        final List<Jar> jars = new ArrayList<>();
        for (final Path path : paths) {
            jars.add(describe(path, loader));
        }
        return new PluginJars(loader, jars);
    }

    /** The class loader over every jar, for {@link Plugins#install}. */
    public ClassLoader classLoader() {
        return classLoader;
    }

    /** The jars, in the order their classes are looked up. */
    public List<Jar> jars() {
        return jars;
    }

    private static List<Path> jarsIn(final Path dir) {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException("plugin directory " + dir + " does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("plugin directory " + dir + " is not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jar"))
                    .sorted()
                    .toList();
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot list plugin directory " + dir + ": " + e, e);
        }
    }

    private static URL url(final Path jar) {
        try {
            return jar.toAbsolutePath().toUri().toURL();
        } catch (final MalformedURLException e) {
            throw new IllegalArgumentException("plugin jar " + jar + " has no URL: " + e.getMessage(), e);
        }
    }

    /** The providers {@code path} lists, each loaded through {@code loader}; fails naming the jar. */
    private static Jar describe(final Path path, final ClassLoader loader) {
        final List<Provider> providers = new ArrayList<>();
        try (JarFile jar = new JarFile(path.toFile())) {
            providers.addAll(providers(jar, ModelProvider.class, path, loader));
            providers.addAll(providers(jar, DatasetProvider.class, path, loader));
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read plugin jar " + path + ": " + e, e);
        }
        return new Jar(path, providers);
    }

    private static List<Provider> providers(
            final JarFile jar, final Class<?> service, final Path path, final ClassLoader loader) throws IOException {
        final JarEntry entry = jar.getJarEntry(SERVICES + service.getName());
        if (entry == null) {
            return List.of();
        }
        final List<Provider> providers = new ArrayList<>();
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                final int comment = line.indexOf('#');
                final String className = (comment < 0 ? line : line.substring(0, comment)).trim();
                if (!className.isEmpty()) {
                    providers.add(provider(className, service, path, loader));
                }
            }
        }
        return providers;
    }

    private static Provider provider(
            final String className, final Class<?> service, final Path path, final ClassLoader loader) {
        final Object instance;
        try {
            final Class<?> type = Class.forName(className, true, loader);
            if (!service.isAssignableFrom(type)) {
                throw new IllegalArgumentException("plugin jar " + path + " lists " + className + " as a "
                        + service.getSimpleName() + ", which it does not implement");
            }
            instance = type.getConstructor().newInstance();
        } catch (final ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException(
                    "plugin jar " + path + ": cannot load its " + service.getSimpleName() + " " + className + ": " + e,
                    e);
        }
        return instance instanceof ModelProvider models
                ? new Provider(className, true, sorted(models.kinds()))
                : new Provider(className, false, sorted(((DatasetProvider) instance).kinds()));
    }

    private static List<String> sorted(final Set<String> kinds) {
        return kinds.stream().sorted().toList();
    }
}
