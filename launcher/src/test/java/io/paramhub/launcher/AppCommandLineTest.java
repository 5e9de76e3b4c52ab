package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

class AppCommandLineTest {

    /** A Streams app's command line that checks its settings as the apps do, and keeps them instead of starting. */
    @Command(name = "probe", mixinStandardHelpOptions = true)
    static final class Probe implements Callable<Integer> {
        @Mixin
        private KafkaOptions kafka;

        @Mixin
        private StreamsAppOptions options;

        @Mixin
        private HttpOptions http;

        @Option(names = "--job")
        private String job;

        Properties settings;
        HttpOptions.Endpoint endpoint;

        @Override
        public Integer call() throws IOException {
            settings = StreamsAppLauncher.settings("probe", options.properties(kafka, "probe"));
            endpoint = http.endpoint(8090);
            SettingException.requireOption(job, "--job");
            return 0;
        }

        String topicPrefix() {
            return kafka.topicPrefix();
        }
    }

    private final StringWriter err = new StringWriter();

    private int run(final Probe probe, final Map<String, String> env, final String... args) {
        return AppCommandLine.execute(
                probe, env, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
    }

    private List<String> errLines() {
        return err.toString().lines().toList();
    }

    @Test
    void shouldLayerFileEnvironmentAndCommandLineWhenSettingsComeFromEach(@TempDir final Path dir) throws IOException {
        // given
        final Path file = dir.resolve("app.properties");
        Files.writeString(
                file,
                "bootstrap.servers=file:9092\nschema.registry.url=http://file:8081\n"
                        + "client.id=from-file\nlinger.ms=9\nparamhub.topic.prefix=file.\nparamhub.http.port=7000\n");
        final Map<String, String> env =
                Map.of("KAFKA_CLIENT_ID", "from-env", "PARAMHUB_HTTP_PORT", "7001", "PARAMHUB_JOB", "j1");
        final Probe probe = new Probe();

        // when
        final int code =
                run(probe, env, "--config", file.toString(), "--bootstrap-servers", "cli:9092", "-Dlinger.ms=1");

        // then
        assertThat(code).as(err.toString()).isZero();
        assertThat(probe.settings)
                .containsEntry("bootstrap.servers", "cli:9092")
                .containsEntry("schema.registry.url", "http://file:8081")
                .containsEntry("client.id", "from-env")
                .containsEntry("linger.ms", "1")
                .containsEntry("application.id", "probe")
                .doesNotContainKey("paramhub.http.port");
        assertThat(probe.topicPrefix()).isEqualTo("file.");
        assertThat(probe.endpoint.port()).isEqualTo(7001);
    }

    @Test
    void shouldRefuseALogFormatThatIsNeitherTextNorJson() {
        // given: a value the logging configuration has no appender for
        final Probe probe = new Probe();

        // when
        final int json = LogFormat.problem(Map.of(LogFormat.ENV, "json")) == null ? 0 : 1;
        final int code = run(probe, Map.of(LogFormat.ENV, "xml"), "--bootstrap-servers", "b:9092", "--job", "j");

        // then
        assertThat(json).isZero();
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(errLines()).containsExactly("probe: PARAMHUB_LOG_FORMAT must be text or json, not 'xml'");
    }

    @Test
    void shouldExitWithOneLineNamingTheSettingWhenBootstrapServersIsMissing() {
        // given
        final Probe probe = new Probe();

        // when
        final int code = run(probe, Map.of(), "--registry-url", "http://r:8081", "--job", "j");

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(errLines()).hasSize(1);
        assertThat(errLines().get(0))
                .startsWith("probe: missing setting bootstrap.servers")
                .contains("--bootstrap-servers", "KAFKA_BOOTSTRAP_SERVERS");
    }

    @Test
    void shouldExitWithOneLineNamingTheSettingWhenAKafkaSettingFromTheEnvironmentIsMalformed() {
        // given
        final Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS",
                "b:9092",
                "KAFKA_SCHEMA_REGISTRY_URL",
                "http://r:8081",
                "KAFKA_COMMIT_INTERVAL_MS",
                "soon");

        // when
        final int code = run(new Probe(), env, "--job", "j");

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(errLines()).hasSize(1);
        assertThat(errLines().get(0)).startsWith("probe: ").contains("commit.interval.ms", "soon");
    }

    @Test
    void shouldSayWhereAMalformedOptionCameFromWhenItCameFromTheEnvironment() {
        // given
        final Map<String, String> env = Map.of("PARAMHUB_HTTP_PORT", "eighty");

        // when
        final int code = run(new Probe(), env, "--bootstrap-servers", "b:9092");

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(errLines()).hasSize(1);
        assertThat(errLines().get(0))
                .startsWith("probe: ")
                .contains("--http-port", "eighty", "environment variable PARAMHUB_HTTP_PORT");
    }

    @Test
    void shouldExitWithOneLineNamingTheOptionWhenARequiredOptionIsMissing() {
        // given
        final Map<String, String> env =
                Map.of("KAFKA_BOOTSTRAP_SERVERS", "b:9092", "KAFKA_SCHEMA_REGISTRY_URL", "http://r:8081");

        // when
        final int code = run(new Probe(), env);

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(errLines())
                .containsExactly(
                        "probe: missing setting --job: give --job, PARAMHUB_JOB or paramhub.job in the --config file");
    }

    @Test
    void shouldExitWithOneLineWhenTheConfigFileDoesNotExist(@TempDir final Path dir) {
        // given
        final Path missing = dir.resolve("nope.properties");

        // when
        final int code = run(new Probe(), Map.of("PARAMHUB_CONFIG", missing.toString()));

        // then
        assertThat(code).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(errLines()).containsExactly("probe: --config: no such file " + missing);
    }

    @Test
    void shouldExplainTheLayeringWhenAskedForHelp() {
        // given
        final StringWriter out = new StringWriter();

        // when
        final int code = AppCommandLine.execute(
                new Probe(), Map.of(), new PrintWriter(out, true), new PrintWriter(err, true), "--help");

        // then
        assertThat(code).isZero();
        assertThat(out.toString())
                .contains(
                        "lowest first",
                        "KAFKA_BOOTSTRAP_SERVERS -> bootstrap.servers",
                        "PARAMHUB_HTTP_PORT -> --http-port",
                        "--config",
                        "-D");
    }
}
