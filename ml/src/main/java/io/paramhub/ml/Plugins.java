package io.paramhub.ml;

import java.util.Objects;

/**
 * The class loader in which {@link Models} and {@link DataSources} look for {@link ModelProvider}s and
 * {@link DatasetProvider}s: the classpath (the thread's context class loader) until an app installs one over its
 * plugin jars ({@link PluginJars}) at start-up. It is held here, not set on a thread, so that every thread sees
 * it, Kafka Streams' stream threads and a worker's compute threads included.
 */
public final class Plugins {

    private static volatile ClassLoader installed;

    private Plugins() {}

    /** Makes the providers {@code loader} sees known to every thread; the last call wins. */
    public static void install(final ClassLoader loader) {
        installed = Objects.requireNonNull(loader, "loader");
    }

    /** Back to the classpath alone (for tests that install plugins). */
    public static void reset() {
        installed = null;
    }

    /** Where to look for providers: the installed plugin class loader, else the thread's context class loader. */
    public static ClassLoader classLoader() {
        final ClassLoader loader = installed;
        return loader != null ? loader : Thread.currentThread().getContextClassLoader();
    }
}
