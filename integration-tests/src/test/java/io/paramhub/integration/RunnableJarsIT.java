package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.integration.apps.AppProcess;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each app's runnable jar, as a user starts it: {@code --help} explains the settings, and a missing or
 * malformed setting stops it with exit code 2 and one line on stderr naming the setting, not a stack trace.
 * No Kafka is needed: the settings are checked before anything connects.
 */
@Tag("integration")
class RunnableJarsIT {

    @ParameterizedTest
    @ValueSource(strings = {"paramhub-aggregator", "paramhub-orchestrator", "paramhub-worker"})
    void shouldExplainHowSettingsAreLayeredWhenAskedForHelp(final String app, @TempDir final Path dir)
            throws Exception {
        // given / when
        final AppProcess.Result result = AppProcess.run(app, Map.of(), dir, "--help");

        // then
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout())
                .contains(
                        "Usage: " + app,
                        "--bootstrap-servers",
                        "--config",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "PARAMHUB_HTTP_PORT",
                        "lowest first");
    }

    @ParameterizedTest
    @ValueSource(strings = {"paramhub-aggregator", "paramhub-orchestrator", "paramhub-worker"})
    void shouldExitWithOneLineNamingBootstrapServersWhenItIsMissing(final String app, @TempDir final Path dir)
            throws Exception {
        // given
        final Map<String, String> env = Map.of(
                "KAFKA_SCHEMA_REGISTRY_URL",
                "http://127.0.0.1:1",
                "PARAMHUB_JOB",
                "j",
                "PARAMHUB_WORKERS",
                "1",
                "PARAMHUB_INDEX",
                "0");

        // when
        final AppProcess.Result result = AppProcess.run(app, env, dir);

        // then
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderrLines()).as(result.stderr()).hasSize(1);
        assertThat(result.stderrLines().get(0))
                .startsWith(app + ": missing setting bootstrap.servers")
                .contains("KAFKA_BOOTSTRAP_SERVERS");
    }

    @ParameterizedTest
    @ValueSource(strings = {"paramhub-aggregator", "paramhub-orchestrator", "paramhub-worker"})
    void shouldExitWithOneLineNamingTheSettingWhenAKafkaSettingIsMalformed(final String app, @TempDir final Path dir)
            throws Exception {
        // given: a producer setting every app's clients read
        final Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS",
                "127.0.0.1:1",
                "KAFKA_SCHEMA_REGISTRY_URL",
                "http://127.0.0.1:1",
                "KAFKA_RECONNECT_BACKOFF_MS",
                "often",
                "PARAMHUB_JOB",
                "j",
                "PARAMHUB_WORKERS",
                "1",
                "PARAMHUB_INDEX",
                "0");

        // when
        final AppProcess.Result result = AppProcess.run(app, env, dir);

        // then
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderrLines()).as(result.stderr()).hasSize(1);
        assertThat(result.stderrLines().get(0)).startsWith(app + ": ").contains("reconnect.backoff.ms", "often");
    }

    @ParameterizedTest
    @ValueSource(strings = {"paramhub-aggregator", "paramhub-orchestrator", "paramhub-worker"})
    void shouldExitWithOneLineNamingTheOptionWhenAParamhubVariableIsMalformed(final String app, @TempDir final Path dir)
            throws Exception {
        // given
        final Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS",
                "127.0.0.1:1",
                "KAFKA_SCHEMA_REGISTRY_URL",
                "http://127.0.0.1:1",
                "PARAMHUB_HTTP_PORT",
                "eighty",
                "PARAMHUB_JOB",
                "j",
                "PARAMHUB_WORKERS",
                "1",
                "PARAMHUB_INDEX",
                "0");

        // when
        final AppProcess.Result result = AppProcess.run(app, env, dir);

        // then
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderrLines()).as(result.stderr()).hasSize(1);
        assertThat(result.stderrLines().get(0))
                .startsWith(app + ": ")
                .contains("--http-port", "eighty", "PARAMHUB_HTTP_PORT");
    }
}
