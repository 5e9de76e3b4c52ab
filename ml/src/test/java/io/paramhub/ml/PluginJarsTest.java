package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugin jars built here from sources, on no classpath: once installed, their model and data set kinds are known to
 * {@link Models} and {@link DataSources} on every thread; a directory or jar that cannot be used is refused naming it.
 */
class PluginJarsTest {

    static final String MODEL_PROVIDER = ShiftedModelPlugin.PROVIDER;
    static final String MODEL_SOURCE = ShiftedModelPlugin.SOURCE;
    static final String DATA_PROVIDER = "plugin.example.PointsProvider";

    /** A provider of kind {@code points}: a small generated linear problem. */
    static final String DATA_SOURCE = """
            package plugin.example;

            import io.paramhub.ml.DataSources;
            import io.paramhub.ml.DataSpec;
            import io.paramhub.ml.DatasetProvider;
            import io.paramhub.ml.TrainTest;
            import java.util.List;
            import java.util.Set;

            public final class PointsProvider implements DatasetProvider {
                public Set<String> kinds() { return Set.of("points"); }
                public List<String> forms() { return List.of("points"); }
                public boolean readsFiles() { return false; }
                public void check(DataSpec spec) { spec.options(Set.of()); }
                public TrainTest load(DataSpec spec) { return DataSources.load("linear:n=64,d=3,seed=5"); }
            }
            """;

    @TempDir
    Path dir;

    @AfterEach
    void uninstall() {
        Plugins.reset();
    }

    private Path pluginJar(final Path jar) throws IOException {
        return PluginJarWriter.write(
                jar,
                Map.of(MODEL_PROVIDER, MODEL_SOURCE, DATA_PROVIDER, DATA_SOURCE),
                Map.of(ModelProvider.class, List.of(MODEL_PROVIDER), DatasetProvider.class, List.of(DATA_PROVIDER)));
    }

    @Test
    void shouldKnowAJarsModelAndDataKindsOnEveryThreadWhenItIsInstalled() throws Exception {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        final Path jar = pluginJar(plugins.resolve("shifted.jar"));
        assertThatThrownBy(() -> Models.create("shifted", 3, 1)).hasMessageContaining("unknown model kind 'shifted'");

        // when
        final PluginJars jars = PluginJars.open(List.of(plugins));
        Plugins.install(jars.classLoader());

        // then
        assertThat(jars.jars()).hasSize(1);
        assertThat(jars.jars().get(0).path()).isEqualTo(jar);
        assertThat(jars.jars().get(0).providers())
                .containsExactly(
                        new PluginJars.Provider(MODEL_PROVIDER, true, List.of("shifted")),
                        new PluginJars.Provider(DATA_PROVIDER, false, List.of("points")));
        assertThat(jars.jars().get(0).describe())
                .isEqualTo("plugin jar " + jar + ": model kinds [shifted] (" + MODEL_PROVIDER + "), data set kinds "
                        + "[points] (" + DATA_PROVIDER + ")");
        final Model[] onOtherThread = new Model[1];
        final Thread thread = new Thread(() -> onOtherThread[0] = Models.create("shifted", 3, 1));
        thread.setContextClassLoader(ClassLoader.getPlatformClassLoader());
        thread.start();
        thread.join();
        assertThat(onOtherThread[0].kind()).isEqualTo("shifted");
        assertThat(onOtherThread[0].parameterCount()).isEqualTo(4);
        assertThat(DataSources.load("points").train().features()).isEqualTo(3);
        assertThat(Models.create("linear", 3, 1)).isInstanceOf(LinearRegression.class);
    }

    @Test
    void shouldForgetThePluginsWhenReset() throws Exception {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        pluginJar(plugins.resolve("shifted.jar"));
        Plugins.install(PluginJars.open(List.of(plugins)).classLoader());

        // when
        Plugins.reset();

        // then
        assertThatThrownBy(() -> Models.create("shifted", 3, 1)).hasMessageContaining("unknown model kind 'shifted'");
    }

    @Test
    void shouldAcceptADirectoryWithoutJarsWhenItIsEmpty() throws IOException {
        // given
        final Path empty = Files.createDirectory(dir.resolve("empty"));
        Files.writeString(empty.resolve("README.txt"), "not a jar");

        // when
        final PluginJars jars = PluginJars.open(List.of(empty));

        // then
        assertThat(jars.jars()).isEmpty();
    }

    @Test
    void shouldTakeTheJarsOfEveryDirectoryInNameOrderWhenGivenSeveral() throws IOException {
        // given
        final Path first = Files.createDirectory(dir.resolve("first"));
        final Path second = Files.createDirectory(dir.resolve("second"));
        final Path b = pluginJar(first.resolve("b.jar"));
        final Path a = pluginJar(first.resolve("a.jar"));
        final Path c = PluginJarWriter.write(second.resolve("c.jar"), Map.of(), Map.of());

        // when
        final PluginJars jars = PluginJars.open(List.of(first, second));

        // then
        assertThat(jars.jars()).extracting(PluginJars.Jar::path).containsExactly(a, b, c);
        assertThat(jars.jars().get(2).describe()).contains("no model or data set providers");
    }

    @Test
    void shouldRefuseADirectoryWhenItDoesNotExist() {
        // given
        final Path missing = dir.resolve("missing");

        // when / then
        assertThatThrownBy(() -> PluginJars.open(List.of(missing)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plugin directory " + missing + " does not exist");
    }

    @Test
    void shouldRefuseADirectoryWhenItIsAFile() throws IOException {
        // given
        final Path file = Files.writeString(dir.resolve("plugins.jar"), "");

        // when / then
        assertThatThrownBy(() -> PluginJars.open(List.of(file)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plugin directory " + file + " is not a directory");
    }

    @Test
    void shouldRefuseAJarWhenItCannotBeRead() throws IOException {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        final Path broken = Files.writeString(plugins.resolve("broken.jar"), "not a zip file");

        // when / then
        assertThatThrownBy(() -> PluginJars.open(List.of(plugins)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read plugin jar " + broken + ": ");
    }

    @Test
    void shouldRefuseAJarWhenAProviderItListsCannotBeLoaded() throws IOException {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        final Path jar = PluginJarWriter.write(
                plugins.resolve("typo.jar"),
                Map.of(MODEL_PROVIDER, MODEL_SOURCE),
                Map.of(ModelProvider.class, List.of("plugin.example.ShiftedProvidr")));

        // when / then
        assertThatThrownBy(() -> PluginJars.open(List.of(plugins)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "plugin jar " + jar + ": cannot load its ModelProvider plugin.example.ShiftedProvidr: ")
                .hasMessageContaining("ClassNotFoundException");
    }

    @Test
    void shouldRefuseAJarWhenAProviderItListsIsNotOne() throws IOException {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        final Path jar = PluginJarWriter.write(
                plugins.resolve("swapped.jar"),
                Map.of(MODEL_PROVIDER, MODEL_SOURCE),
                Map.of(DatasetProvider.class, List.of(MODEL_PROVIDER)));

        // when / then
        assertThatThrownBy(() -> PluginJars.open(List.of(plugins)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plugin jar " + jar + " lists " + MODEL_PROVIDER
                        + " as a DatasetProvider, which it does not implement");
    }
}
