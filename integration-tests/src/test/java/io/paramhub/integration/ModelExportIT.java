package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.worker.IterationListener;
import io.paramhub.worker.Worker;
import io.paramhub.worker.WorkerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paramhub model export} after a job trained to its end on a real broker: the model topic's last records
 * carry the final mark, and NumPy (and PyTorch) read from the npz and safetensors files exactly the values of that
 * version, as named tensors whose sizes add up to the parameter count.
 */
@Tag("integration")
class ModelExportIT extends AggregatedClusterTestBase {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Path READER =
            Path.of("src", "test", "python", "read_export.py").toAbsolutePath();

    @TempDir
    private Path dir;

    @Test
    void shouldExportTheFinalVersionAsNumpyAndSafetensorsWhenTheJobIsOver() throws Exception {
        // given: linear regression (17 parameters in 3 shards), 2 workers, 1 epoch of 32 clocks, trained to its end
        final JobSpec spec = LinearJobs.job("export-linear", 2, 3, 1);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            workers.add(CompletableFuture.runAsync(new Worker(
                    WorkerSettings.of(spec.getJob(), index, 2),
                    topics,
                    connection.client(),
                    Worker.loadFromSpec(),
                    IterationListener.NONE)));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        await().alias("every shard's newest model record marked final")
                .atMost(TIMEOUT)
                .until(() -> newest(spec.getJob()).size() == 3
                        && newest(spec.getJob()).values().stream().allMatch(ModelShard::getFinalVersion));
        final Map<Integer, ModelShard> last = newest(spec.getJob());
        final long version = last.get(0).getVersion();
        final float[] expected = assemble(last.values(), spec.getParameters());

        // when
        final Path npz = dir.resolve("model.npz");
        final Path safetensors = dir.resolve("model.safetensors");
        final CliRun npzRun = export(spec.getJob(), "npz", npz);
        final CliRun safetensorsRun = export(spec.getJob(), "safetensors", safetensors);

        // then: the last records are final, of the job's last clock, and say the layout
        assertThat(npzRun.code()).as(npzRun.err()).isZero();
        assertThat(safetensorsRun.code()).as(safetensorsRun.err()).isZero();
        assertThat(version).isEqualTo(4096 / 128);
        assertThat(last.values()).allSatisfy(record -> {
            assertThat(record.getVersion()).isEqualTo(version);
            assertThat(record.getModel()).isEqualTo("linear");
            assertThat(record.getTensors()).hasSize(2);
        });
        // and NumPy reads exactly those values from both files, as named tensors covering every parameter
        final PythonProcesses.Finished read = PythonProcesses.run(
                dir.resolve("python.log"), 60, READER.toString(), npz.toString(), safetensors.toString());
        assertThat(read.exitCode()).as(read.output()).isZero();
        final JsonNode files = new ObjectMapper()
                .readTree(read.output()
                        .lines()
                        .filter(line -> line.startsWith("{"))
                        .reduce((first, second) -> second)
                        .orElseThrow());
        for (final String format : List.of("npz", "safetensors")) {
            final JsonNode tensors = files.get(format);
            assertThat(names(tensors)).as(format).containsExactly("weight", "bias");
            assertThat(tensors.get("weight").get("shape").toString()).isEqualTo("[1,16]");
            assertThat(tensors.get("bias").get("shape").toString()).isEqualTo("[1]");
            assertThat(tensors.get("weight").get("dtype").asText()).isEqualTo("float32");
            assertThat(concat(tensors)).as(format).containsExactly(expected);
        }
        assertThat(files.get("metadata").get("job").asText()).isEqualTo(spec.getJob());
        assertThat(files.get("metadata").get("version").asText()).isEqualTo(Long.toString(version));
        assertThat(files.get("torch").toString()).isEqualTo("[\"bias\",\"weight\"]");
    }

    @Test
    void shouldNameTheMissingJobOrVersionWhenThereIsNothingToExport() throws Exception {
        // given
        final JobSpec spec = LinearJobs.job("export-early", 1, 2, 1);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        await().alias("version 0 of both shards")
                .atMost(TIMEOUT)
                .until(() -> newest(spec.getJob()).size() == 2);

        // when
        final CliRun unknown = export("no-such-job", "npz", dir.resolve("none.npz"));
        final CliRun missingVersion = export(spec.getJob(), "--version", "5", "npz", dir.resolve("v5.npz"));
        final CliRun initial = export(spec.getJob(), "--version", "0", "npz", dir.resolve("v0.npz"));

        // then
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err()).contains("no job no-such-job");
        assertThat(missingVersion.code()).isEqualTo(1);
        assertThat(missingVersion.err()).contains("version 5 of job export-early is not", "shard 0: 0", "shard 1: 0");
        assertThat(initial.code()).as(initial.err()).isZero();
    }

    private static CliRun export(final String job, final String format, final Path out) {
        return export(job, format, out, new String[0]);
    }

    private static CliRun export(
            final String job, final String versionOption, final String version, final String format, final Path out) {
        return export(job, format, out, versionOption, version);
    }

    private static CliRun export(final String job, final String format, final Path out, final String... more) {
        final List<String> args = new ArrayList<>(List.of(
                "model",
                "export",
                job,
                "--format",
                format,
                "--out",
                out.toString(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** The newest record of each of {@code job}'s shards on the model topic, read here, not by the command. */
    private static Map<Integer, ModelShard> newest(final String job) {
        final Map<Integer, ModelShard> newest = new TreeMap<>();
        for (final ModelShard record : TopicContents.values(kafka.bootstrapServers(), topics.model())) {
            if (job.equals(record.getJob())) {
                newest.put(record.getShard(), record);
            }
        }
        return newest;
    }

    private static float[] assemble(final Collection<ModelShard> shards, final int parameters) {
        final float[] vector = new float[parameters];
        for (final ModelShard shard : shards) {
            final float[] values = FloatPacking.unpack(shard.getValues());
            System.arraycopy(values, 0, vector, shard.getFirstParameter(), values.length);
        }
        return vector;
    }

    private static List<String> names(final JsonNode tensors) {
        final List<String> names = new ArrayList<>();
        tensors.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The tensors' values in order, each float64 Python printed narrowed back to the float32 it came from. */
    private static float[] concat(final JsonNode tensors) {
        final List<Float> values = new ArrayList<>();
        tensors.elements()
                .forEachRemaining(tensor -> tensor.get("values").forEach(v -> values.add((float) v.asDouble())));
        final float[] array = new float[values.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = values.get(i);
        }
        return array;
    }
}
