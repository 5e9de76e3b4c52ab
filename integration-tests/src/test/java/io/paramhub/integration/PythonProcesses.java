package io.paramhub.integration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Python 3 ({@code /usr/bin/python3}, with python3-confluent-kafka, python3-avro, python3-numpy and
 * python3-torch from scripts/install-deps) running the Python worker library's tests and scripts, from the
 * {@code integration-tests} module (where surefire and failsafe run), each with its output in a file.
 */
final class PythonProcesses {

    /** Debian's interpreter: the first {@code python3} on a developer's PATH may lack Debian's packages. */
    static final String PYTHON = "/usr/bin/python3";

    /** The library, {@code clients/python} of the repository. */
    static final Path CLIENT =
            Path.of("..", "clients", "python").toAbsolutePath().normalize();

    /** PythonWorkerIT's worker and reference. */
    static final Path SOFTMAX_WORKER =
            Path.of("src", "test", "python", "softmax_worker.py").toAbsolutePath();

    private PythonProcesses() {}

    /** What a finished process returned and printed (stdout and stderr together). */
    record Finished(int exitCode, String output) {}

    /** Starts {@code /usr/bin/python3 args...} with its stdout and stderr in {@code output}. */
    static Process start(final Path output, final String... args) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(PYTHON);
        command.addAll(List.of(args));
        final ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        // one BLAS thread: the same sums in the same order in every process
        builder.environment().put("OPENBLAS_NUM_THREADS", "1");
        builder.environment().put("OMP_NUM_THREADS", "1");
        builder.environment().put("PYTHONUNBUFFERED", "1");
        return builder.start();
    }

    /**
     * Starts softmax_worker.py as worker {@code index} of {@code workers} of {@code job}, writing its final model to
     * {@code out}, with {@code extra} options (security settings); its output in {@code log}.
     */
    static Process startWorker(
            final Path log,
            final String bootstrapServers,
            final String registryUrl,
            final String job,
            final int index,
            final int workers,
            final Path out,
            final String... extra)
            throws IOException {
        final List<String> args = new ArrayList<>(List.of(
                SOFTMAX_WORKER.toString(),
                "worker",
                "--bootstrap-servers",
                bootstrapServers,
                "--registry-url",
                registryUrl,
                "--job",
                job,
                "--index",
                Integer.toString(index),
                "--workers",
                Integer.toString(workers),
                "--out",
                out.toString()));
        args.addAll(List.of(extra));
        return start(log, args.toArray(String[]::new));
    }

    /** Runs {@code /usr/bin/python3 args...} to its end, at most {@code seconds}. */
    static Finished run(final Path output, final long seconds, final String... args)
            throws IOException, InterruptedException {
        final Process process = start(output, args);
        final int exit = awaitExit(process, seconds);
        return new Finished(exit, Files.readString(output));
    }

    /** The exit code of {@code process} once it ends; kills it and fails if it runs longer than {@code seconds}. */
    static int awaitExit(final Process process, final long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("python3 process did not exit within " + seconds + " s");
        }
        return process.exitValue();
    }
}
