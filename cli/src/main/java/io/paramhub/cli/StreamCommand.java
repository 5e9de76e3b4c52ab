package io.paramhub.cli;

import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.ml.Dataset;
import io.paramhub.stream.ExampleRecords;
import io.paramhub.stream.ExampleStreamer;
import io.paramhub.stream.StreamResult;
import io.paramhub.stream.StreamSettings;
import io.paramhub.topology.StreamsProperties;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code paramhub stream}: writes a data set's examples to a topic of a running cluster as Avro records, for online
 * training ({@link ExampleStreamer}); until done, or until Ctrl-C, which flushes what was sent.
 */
@Command(
        name = "stream",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Writes a data set's examples to a Kafka topic as Avro records, for online training (docs/online.md).",
            "The records are " + ExampleRecords.NAME + " (id: long from 0, features: array<float>, label: int class or "
                    + "double target), the schema registered under <topic>-value, in the registry's wire format, keyed by "
                    + "the id, example id to partition id %% partitions. Writes to the cluster of `paramhub up` unless "
                    + "--bootstrap-servers is given. Prints what it wrote, how long it took and the rate achieved; Ctrl-C "
                    + "stops it after writing what it has sent."
        })
final class StreamCommand implements Callable<Integer> {

    private static final long PROGRESS_SECONDS = 10;

    @Option(
            names = "--dataset",
            required = true,
            paramLabel = "SPEC",
            description =
                    "Data set: fashion-mnist[:DIR], linear[:n=..,d=..], csv:FILE[,..], idx:IMAGES,LABELS[,..], "
                            + "avro:FILE,features=..[,..] or a kind of your own (docs/data.md); its training set unless --test.")
    private String dataset;

    @Option(
            names = "--topic",
            required = true,
            paramLabel = "TOPIC",
            description = "Topic to write to; created with --partitions when missing.")
    private String topic;

    @Option(names = "--test", description = "Write the data set's test set instead of its training set.")
    private boolean testSet;

    @Option(
            names = "--rate",
            paramLabel = "R",
            defaultValue = "1000",
            description = "Examples a second, sent in steps of at most 10 ms; 0 = as fast as possible (default: "
                    + "${DEFAULT-VALUE}).")
    private double rate;

    @Option(
            names = "--count",
            paramLabel = "N",
            description = "Examples to write; without --loop at most the data set's size (default: the data set "
                    + "once; with --loop, until stopped).")
    private Long count;

    @Option(
            names = "--loop",
            description = "Start over at the end of the data set; ids keep counting, so example id is row id %% size.")
    private boolean loop;

    @Option(
            names = "--drift-at",
            paramLabel = "N",
            description = "Concept drift: from example N on (ids from 0), each class label is replaced by its image "
                    + "under a fixed permutation of the classes, drawn with --seed, that moves every class. "
                    + "Classification data sets only.")
    private Long driftAt;

    @Option(
            names = "--partitions",
            paramLabel = "P",
            defaultValue = "" + StreamSettings.DEFAULT_PARTITIONS,
            description = "Partitions of the topic when it is created (replication factor: the broker's default); an "
                    + "existing topic is written with the partitions it has (default: ${DEFAULT-VALUE}).")
    private int partitions;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "" + StreamSettings.DEFAULT_SEED,
            description = "Seed of the --drift-at permutation (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private ConnectionOptions cluster;

    @Override
    public Integer call() throws InterruptedException {
        final Properties connection = cluster.settings();
        connection.putIfAbsent(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, RecordCommand.UP_BOOTSTRAP_SERVERS);
        connection.putIfAbsent(StreamsProperties.SCHEMA_REGISTRY_URL, RecordCommand.UP_REGISTRY_URL);
        final PrintStream out = System.out;
        try (ExampleStreamer streamer = ExampleStreamer.open(settings(), connection)) {
            describe(streamer, out);
            final CompletableFuture<StreamResult> done = streamer.start();
            final CountDownLatch reported = new CountDownLatch(1);
            final Thread hook = new Thread(
                    () -> {
                        streamer.stop();
                        awaitQuietly(reported);
                    },
                    "paramhub-stream-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                out.println(await(done, streamer, out));
            } finally {
                reported.countDown();
                removeHook(hook);
            }
        }
        return 0;
    }

    private StreamSettings settings() {
        StreamSettings settings = StreamSettings.of(dataset, topic)
                .withTestSet(testSet)
                .withRate(rate)
                .withLoop(loop)
                .withPartitions(partitions)
                .withSeed(seed);
        if (count != null) {
            settings = settings.withCount(count);
        }
        if (driftAt != null) {
            settings = settings.withDriftAt(driftAt);
        }
        return settings;
    }

    private static void describe(final ExampleStreamer streamer, final PrintStream out) {
        final Dataset data = streamer.dataset();
        final StreamSettings settings = streamer.settings();
        out.printf(
                Locale.ROOT,
                "data: %s, %,d examples of %d features, %s%n",
                data.name(),
                data.size(),
                data.features(),
                data.isClassification() ? data.classes() + " classes" : "regression");
        out.printf(
                Locale.ROOT,
                "%s; value schema id %d under %s-value%n",
                streamer.topic().describe(settings.partitions()),
                streamer.schemaId(),
                streamer.topic().name());
        final String rate = settings.rate() == 0
                ? "as fast as possible"
                : String.format(Locale.ROOT, "at %,.0f examples a second", settings.rate());
        final String count = streamer.planned().isPresent()
                ? String.format(Locale.ROOT, "%,d examples", streamer.planned().getAsLong())
                : "until stopped (Ctrl-C)";
        out.printf(Locale.ROOT, "writing %s %s%s%n", count, rate, settings.loop() ? ", looping" : "");
        if (streamer.drift().drifts()) {
            out.println("drift: " + streamer.drift());
        }
    }

    /** The stream's result, printing how many were sent every {@link #PROGRESS_SECONDS} until then. */
    private static StreamResult await(
            final CompletableFuture<StreamResult> done, final ExampleStreamer streamer, final PrintStream out)
            throws InterruptedException {
        while (true) {
            try {
                return done.get(PROGRESS_SECONDS, TimeUnit.SECONDS);
            } catch (final TimeoutException e) {
                out.printf(Locale.ROOT, "sent %,d examples, %,d written%n", streamer.sent(), streamer.acknowledged());
            } catch (final ExecutionException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    private static void awaitQuietly(final CountDownLatch reported) {
        try {
            reported.await(30, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException e) {
            // the JVM is shutting down: the hook is running, and waits for the result printed above
        }
    }
}
