package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.topology.client.ModelView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Python worker ITs share: a real broker, registry and aggregator ({@link AggregatedClusterTestBase}), a
 * directory for each test, and {@link PythonJobs}'s softmax workers and NumPy reference
 * (src/test/python/softmax_worker.py), with the records of a job they read back.
 */
abstract class PythonClusterTestBase extends AggregatedClusterTestBase {

    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    protected Path dir;

    /** Writes {@code spec}'s version 0 to a file, for the reference. */
    Path writeInitial(final JobSpec spec) throws IOException {
        final Path file = dir.resolve("initial.f32");
        final ByteBuffer values = spec.getInitialParameters().duplicate();
        final byte[] bytes = new byte[values.remaining()];
        values.get(bytes);
        Files.write(file, bytes);
        return file;
    }

    Path log(final int index) {
        return dir.resolve("worker-" + index + ".log");
    }

    /** Starts worker {@code index} of {@code workers}, with {@code extra} options of softmax_worker.py. */
    Process startWorker(final JobSpec spec, final int index, final int workers, final String... extra)
            throws IOException {
        return PythonProcesses.startWorker(
                log(index), kafka.bootstrapServers(), registry.url(), spec.getJob(), index, workers, dir, extra);
    }

    void assertExitsCleanly(final Process worker, final int index) throws Exception {
        final int exit = PythonProcesses.awaitExit(worker, TIMEOUT.toSeconds());
        final String output = Files.readString(log(index));
        assertThat(exit)
                .as("worker %d exit code; its output:%n%s", index, output)
                .isZero();
    }

    /** The NumPy reference of {@code workers} workers for {@code epochs} epochs, with {@code extra} options. */
    float[] reference(final Path initial, final int epochs, final int workers, final String... extra) throws Exception {
        final Path out = dir.resolve("reference.f32");
        final List<String> args = new ArrayList<>(List.of(
                PythonProcesses.SOFTMAX_WORKER.toString(),
                "reference",
                "--initial",
                initial.toString(),
                "--learning-rate",
                Double.toString(PythonJobs.LEARNING_RATE),
                "--global-batch",
                Integer.toString(PythonJobs.GLOBAL_BATCH),
                "--seed",
                Long.toString(PythonJobs.SEED),
                "--epochs",
                Integer.toString(epochs),
                "--workers",
                Integer.toString(workers),
                "--out",
                out.toString()));
        args.addAll(List.of(extra));
        final PythonProcesses.Finished run =
                PythonProcesses.run(dir.resolve("reference.log"), TIMEOUT.toSeconds(), args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.output()).isZero();
        return readFloats(out);
    }

    static ModelView finalView(final JobSpec spec) {
        return PythonJobs.finalModel(topics, connection.client(), spec, TIMEOUT);
    }

    static float[] readFloats(final Path file) throws IOException {
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final float[] values = new float[bytes.remaining() / Float.BYTES];
        bytes.asFloatBuffer().get(values);
        return values;
    }

    static List<DeadLetter> deadLettersOf(final JobSpec spec) {
        return TopicContents.readAll(kafka.bootstrapServers(), topics.deadLetters()).stream()
                .filter(record -> record.key().startsWith(spec.getJob() + "/"))
                .map(ConsumerRecord::value)
                .toList();
    }

    static List<IterationTelemetry> telemetryOf(final JobSpec spec) {
        return TopicContents.values(kafka.bootstrapServers(), topics.telemetry()).stream()
                .filter(t -> t.getJob().equals(spec.getJob()))
                .toList();
    }
}
