package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.ml.Models;
import io.paramhub.ml.PluginJars;
import io.paramhub.ml.Plugins;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code --plugins} as every app takes it: from the command line, {@code PARAMHUB_PLUGINS} or the file, installed
 * before the app builds a model; a directory or jar it cannot use stops the app with one line naming the option.
 */
class PluginOptionsTest {

    /** An app that installs its plugins as the apps do, then keeps what they brought. */
    @Command(name = "probe")
    static final class Probe implements Callable<Integer> {
        @Mixin
        private PluginOptions plugins;

        List<PluginJars.Jar> jars;

        @Override
        public Integer call() {
            jars = plugins.install();
            return 0;
        }
    }

    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    @AfterEach
    void uninstall() {
        Plugins.reset();
    }

    private int run(final Probe probe, final Map<String, String> env, final String... args) {
        return AppCommandLine.execute(
                probe, env, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
    }

    @Test
    void shouldInstallEveryDirectoryWhenPluginsComeFromTheEnvironment() throws IOException {
        // given: two directories, one with a jar that brings nothing, one empty
        final Path first = Files.createDirectory(dir.resolve("first"));
        final Path second = Files.createDirectory(dir.resolve("second"));
        final Path jar = emptyJar(first.resolve("library.jar"));
        final Probe probe = new Probe();

        // when
        final int code = run(probe, Map.of("PARAMHUB_PLUGINS", first + File.pathSeparator + second));

        // then
        assertThat(code).as(err.toString()).isZero();
        assertThat(probe.jars).extracting(PluginJars.Jar::path).containsExactly(jar);
        assertThat(Plugins.classLoader().getName()).isEqualTo("paramhub-plugins");
        assertThat(Models.create("linear", 2, 1).kind()).isEqualTo("linear");
    }

    @Test
    void shouldLeaveTheClasspathAloneWhenNoPluginsAreGiven() {
        // given
        final Probe probe = new Probe();

        // when
        final int code = run(probe, Map.of());

        // then
        assertThat(code).isZero();
        assertThat(probe.jars).isEmpty();
        assertThat(Plugins.classLoader()).isSameAs(Thread.currentThread().getContextClassLoader());
    }

    @Test
    void shouldStopWithOneLineNamingTheOptionWhenTheDirectoryIsMissing() {
        // given
        final Path missing = dir.resolve("missing");

        // when
        final int code = run(new Probe(), Map.of("PARAMHUB_PLUGINS", missing.toString()));

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(err.toString().lines().toList())
                .containsExactly(
                        "probe: --plugins or PARAMHUB_PLUGINS: plugin directory " + missing + " does not exist");
    }

    @Test
    void shouldStopWithOneLineNamingTheJarWhenAJarCannotBeRead() throws IOException {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        final Path broken = Files.writeString(plugins.resolve("broken.jar"), "not a zip file");

        // when
        final int code = run(new Probe(), Map.of(), "--plugins", plugins.toString());

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(err.toString().lines().toList()).hasSize(1);
        assertThat(err.toString()).startsWith("probe: --plugins or PARAMHUB_PLUGINS: cannot read plugin jar " + broken);
    }

    @Test
    void shouldSplitDirectoriesAtThePathSeparatorWhenSeveralAreGiven() {
        // when
        final List<Path> dirs = PluginOptions.dirs(
                "/a" + File.pathSeparator + File.pathSeparator + " /b " + File.pathSeparator, "--plugins");

        // then
        assertThat(dirs).containsExactly(Path.of("/a"), Path.of("/b"));
    }

    private static Path emptyJar(final Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("README.txt"));
            out.write("a library".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
