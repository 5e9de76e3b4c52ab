package io.paramhub.integration.apps;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the apps' runnable jars ({@code java -jar <module>/target/<app>.jar}, as built by the reactor's
 * package phase) in a JVM of its own, configured through its environment, with its output in a file.
 */
public final class AppProcess implements AutoCloseable {

    /** The apps' jars, by app name, relative to the {@code integration-tests} module (where failsafe runs). */
    public static final Map<String, Path> JARS = Map.of(
            "paramhub-aggregator", Path.of("..", "aggregator-app", "target", "paramhub-aggregator.jar"),
            "paramhub-orchestrator", Path.of("..", "orchestrator-app", "target", "paramhub-orchestrator.jar"),
            "paramhub-worker", Path.of("..", "worker-app", "target", "paramhub-worker.jar"));

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final Path output;
    private final int httpPort;

    private AppProcess(final Process process, final Path output, final int httpPort) {
        this.process = process;
        this.output = output;
        this.httpPort = httpPort;
    }

    /** Starts {@code app} with {@code env} added to this JVM's environment (less any KAFKA_* or PARAMHUB_*). */
    public static AppProcess start(
            final String app,
            final Map<String, String> env,
            final int httpPort,
            final Path output,
            final String... args)
            throws IOException {
        final ProcessBuilder builder =
                new ProcessBuilder(command(app, args)).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("KAFKA_") || name.startsWith("PARAMHUB_"));
        builder.environment().putAll(env);
        return new AppProcess(builder.start(), output, httpPort);
    }

    /** Runs {@code app} to its end with {@code env} and {@code args}: its exit code, stdout and stderr. */
    public static Result run(final String app, final Map<String, String> env, final Path dir, final String... args)
            throws IOException, InterruptedException {
        final Path out = Files.createTempFile(dir, app, ".out");
        final Path err = Files.createTempFile(dir, app, ".err");
        final ProcessBuilder builder = new ProcessBuilder(command(app, args))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("KAFKA_") || name.startsWith("PARAMHUB_"));
        builder.environment().putAll(env);
        final Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(app + " did not exit within 60 s");
        }
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** What a finished app printed and returned. */
    public record Result(int exitCode, String stdout, String stderr) {

        public List<String> stderrLines() {
            return stderr.lines().toList();
        }
    }

    private static List<String> command(final String app, final String... args) {
        final Path jar = JARS.get(app);
        if (jar == null || !Files.isRegularFile(jar)) {
            throw new IllegalStateException("no runnable jar for " + app + " at " + jar + ": run mvn package first");
        }
        final List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                // several apps start at once on two cores: C1 alone and the serial collector bring them up sooner,
                // and Java's floating point is the same under either compiler, so every model is the same bit for bit
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-jar",
                jar.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** A port free now, for an app's HTTP endpoint. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** GET {@code path} from the app's HTTP endpoint: status and body, or status -1 while it does not answer. */
    public HttpResponse<String> get(final String path) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (final IOException e) {
            return null;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The status of GET {@code path}, -1 while the app does not answer. */
    public int status(final String path) {
        final HttpResponse<String> response = get(path);
        return response == null ? -1 : response.statusCode();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends SIGTERM and returns the exit code, or -1 if the app did not stop within {@code timeout}. */
    public int terminate(final Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return -1;
        }
        return process.exitValue();
    }

    /** What the app printed so far. */
    public String output() throws IOException {
        return Files.readString(output);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
