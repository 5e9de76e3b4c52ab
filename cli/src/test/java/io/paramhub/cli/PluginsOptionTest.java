package io.paramhub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.ml.Plugins;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code paramhub} command's global {@code --plugins}: given before or after any subcommand, or as
 * {@code PARAMHUB_PLUGINS}, its jars are installed before the subcommand runs, and a directory it cannot use stops
 * the command with one line before anything starts.
 */
class PluginsOptionTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void uninstall() {
        Plugins.reset();
    }

    private int run(final Map<String, String> env, final String... args) {
        final PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return ParamHubCli.execute(env, args);
        } finally {
            System.setErr(original);
        }
    }

    @Test
    void shouldInstallThePluginsWhenTheOptionFollowsASubcommand() throws IOException {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));

        // when: jobs alone prints its usage
        final int code = run(Map.of(), "jobs", "--plugins", plugins.toString());

        // then
        assertThat(code).isZero();
        assertThat(Plugins.classLoader().getName()).isEqualTo("paramhub-plugins");
    }

    @Test
    void shouldStopBeforeTheDemoStartsWhenTheVariableNamesAMissingDirectory() {
        // given
        final Path missing = dir.resolve("missing");

        // when
        final int code = run(Map.of("PARAMHUB_PLUGINS", missing.toString()), "demo", "--epochs", "1");

        // then
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly("paramhub: PARAMHUB_PLUGINS: plugin directory " + missing + " does not exist");
    }

    @Test
    void shouldPreferTheOptionWhenBothTheOptionAndTheVariableAreGiven() throws IOException {
        // given
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        final Path missing = dir.resolve("missing");

        // when
        final int code = run(Map.of("PARAMHUB_PLUGINS", plugins.toString()), "--plugins", missing.toString(), "jobs");

        // then
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("paramhub: --plugins: plugin directory " + missing);
    }

    @Test
    void shouldShowHelpWhenThePluginsCannotBeLoaded() {
        // when
        final int code = run(Map.of("PARAMHUB_PLUGINS", dir.resolve("missing").toString()), "demo", "--help");

        // then
        assertThat(code).isZero();
        assertThat(Plugins.classLoader().getName()).isNotEqualTo("paramhub-plugins");
    }
}
