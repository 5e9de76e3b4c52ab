package io.paramhub.cli.model;

import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code paramhub model export J}: reads job J's model from {@code model} (and {@code jobs}, to name a missing job)
 * and writes its parameters, without optimizer state, as named tensors to a NumPy {@code .npz} or a
 * {@code .safetensors} file. Writes no topic.
 */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Writes job JOB's model (its parameters, no optimizer state) as named tensors with their shapes, "
                + "to a file NumPy (npz) or PyTorch (safetensors, or npz with torch.from_numpy) loads.")
final class ExportCommand implements Callable<Integer> {

    /** The file formats. */
    enum Format {
        npz,
        safetensors
    }

    @Parameters(paramLabel = "JOB", description = "The job whose model to export.")
    private String job;

    @Option(
            names = "--version",
            paramLabel = "V",
            description = "The model version to export (default: the newest every shard has on the topic; after "
                    + "the job, its final version).")
    private Long version;

    @Option(
            names = "--format",
            required = true,
            paramLabel = "FORMAT",
            description = "npz (a zip of NAME.npy arrays, float32) or safetensors (F32 tensors; __metadata__ job, "
                    + "version, model).")
    private Format format;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The file to write (replaced).")
    private Path out;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "How long reading the topics may take (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds = 60;

    @Mixin
    private ConnectionOptions cluster;

    @Override
    public Integer call() throws IOException {
        final Properties settings = cluster.settings();
        settings.putIfAbsent(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, RecordCommand.UP_BOOTSTRAP_SERVERS);
        settings.putIfAbsent(StreamsProperties.SCHEMA_REGISTRY_URL, RecordCommand.UP_REGISTRY_URL);
        final KafkaConnection connection = KafkaConnection.of(settings);
        final TopicCatalog topics = connection.topics(cluster.topicPrefix());
        final ExportedModel model;
        try {
            model = ModelVersions.read(
                    topics.model(),
                    topics.jobs(),
                    connection.client(),
                    job,
                    version == null ? OptionalLong.empty() : OptionalLong.of(version),
                    Duration.ofSeconds(timeoutSeconds));
        } catch (final IllegalArgumentException e) {
            System.err.println("paramhub model export: " + e.getMessage());
            return 1;
        }
        write(model, format, out);
        System.out.printf(
                Locale.ROOT,
                "wrote %s (%s): job %s, model %s, version %d%s, %d tensors, %d parameters%n",
                out,
                format,
                model.job(),
                model.model().isEmpty() ? "(not recorded)" : model.model(),
                model.version(),
                model.finalVersion() ? " (final)" : "",
                model.tensors().size(),
                model.parameters().length);
        model.tensors().forEach(tensor -> System.out.println("  " + tensor.getName() + " " + tensor.getShape()));
        return 0;
    }

    /** Writes {@code model} to a file beside {@code out}, then moves it there, so that a failure leaves no half file. */
    static void write(final ExportedModel model, final Format format, final Path out) throws IOException {
        final Path parent = out.toAbsolutePath().getParent();
        final Path partial = Files.createTempFile(parent, out.getFileName().toString(), ".partial");
        try {
            try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(partial))) {
                if (format == Format.npz) {
                    NpzWriter.write(model, stream);
                } else {
                    SafetensorsWriter.write(model, stream);
                }
            }
            Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
