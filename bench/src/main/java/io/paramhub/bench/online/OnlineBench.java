package io.paramhub.bench.online;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.DemoJobs;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.online.OnlineRun;
import io.paramhub.embedded.online.OnlineTally;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Models;
import io.paramhub.ml.TopicSpec;
import io.paramhub.stream.ExampleRecords;
import io.paramhub.stream.ExampleStreamer;
import io.paramhub.stream.StreamResult;
import io.paramhub.stream.StreamSettings;
import io.paramhub.topology.client.SchemaRegistration;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

/**
 * {@code paramhub bench online}: Fashion-MNIST's training examples written to a topic by Kafka's producer as fast as
 * it goes; a topic-mode job of {@code workers} workers training that backlog (the highest rate they sustain); then
 * the same job on a fresh topic streamed at half that rate (freshness and lag). Writes {@code report.json} and
 * {@link OnlinePlots}; reads and writes the run's topics.
 */
final class OnlineBench {

    static final long DEFAULT_EXAMPLES = 120_000;
    static final int DEFAULT_BATCH = 512;
    private static final String DATA = DataSources.FASHION_MNIST;

    private final String model;
    private final long examples;
    private final int workers;
    private final int batch;
    private final long seed;
    private final String topicPrefix;
    private final PrintStream console;

    OnlineBench(
            final String model,
            final long examples,
            final int workers,
            final int batch,
            final long seed,
            final String topicPrefix,
            final PrintStream console) {
        this.model = model;
        this.examples = examples;
        this.workers = workers;
        this.batch = batch;
        this.seed = seed;
        this.topicPrefix = topicPrefix;
        this.console = console;
    }

    /** One arm: a job trained from a topic, how long it took from the first example on, what it reported. */
    private record Arm(long examples, double seconds, OnlineTally.Summary summary) {
        double rate() {
            return examples / seconds;
        }
    }

    void run(final Properties connectionSettings, final Path out) throws Exception {
        Files.createDirectories(out);
        final Path stateDir = Files.createTempDirectory("paramhub-online-bench-");
        final String stamp = Long.toString(System.currentTimeMillis());
        try (LocalCluster cluster = LocalCluster.startOrConnect(connectionSettings)) {
            console.println(cluster.describe());
            SchemaRegistration.registerValueSchemas(
                    cluster.connection().topics(topicPrefix),
                    cluster.connection().serdes());
            final String backlogTopic = topicPrefix + "examples.bench-backlog-" + stamp;
            final StreamResult produced =
                    stream(cluster, backlogTopic, 0, examples).get();
            console.printf(
                    Locale.ROOT,
                    "producer: %,d examples into %s in %.1f s, %,.0f a second%n",
                    produced.examples(),
                    backlogTopic,
                    produced.seconds(),
                    produced.rate());
            final Arm backlog = train(
                    cluster,
                    stateDir.resolve("backlog"),
                    "bench-backlog-" + stamp,
                    backlogTopic,
                    examples,
                    () -> new Done(CompletableFuture.completedFuture(null)));
            console.printf(
                    Locale.ROOT,
                    "backlog: %,d examples trained in %.1f s, %,.0f a second (%.2f of the producer's rate)%n",
                    backlog.examples(),
                    backlog.seconds(),
                    backlog.rate(),
                    backlog.rate() / produced.rate());
            final double half = backlog.rate() / 2;
            final String liveTopic = topicPrefix + "examples.bench-live-" + stamp;
            final long liveExamples = Math.max(batch, examples / 2);
            final Arm live = train(
                    cluster,
                    stateDir.resolve("live"),
                    "bench-live-" + stamp,
                    liveTopic,
                    liveExamples,
                    () -> new Done(stream(cluster, liveTopic, half, liveExamples)));
            console.printf(
                    Locale.ROOT,
                    "at %,.0f a second: freshness p50 %.0f ms, p99 %.0f ms; largest lag %,d examples%n",
                    half,
                    live.summary().freshnessP50Ms(),
                    live.summary().freshnessP99Ms(),
                    live.summary().maxLag());
            OnlinePlots.write(
                    out, produced.rate(), backlog.rate(), half, live.summary().windows());
            final ObjectNode report = report(produced, backlog, half, live);
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(out.resolve("report.json").toFile(), report);
            console.println("report written to " + out.resolve("report.json"));
        } finally {
            Directories.deleteRecursively(stateDir);
        }
    }

    /** The examples streaming into a topic, done when the last is acknowledged. */
    private record Done(CompletableFuture<?> done) implements OnlineRun.Streaming {
        @Override
        public void close() {}
    }

    private CompletableFuture<StreamResult> stream(
            final LocalCluster cluster, final String topic, final double rate, final long count) {
        final ExampleStreamer streamer = ExampleStreamer.open(
                StreamSettings.of(DATA, topic)
                        .withRate(rate)
                        .withCount(count)
                        .withLoop(true)
                        .withPartitions(workers),
                cluster.connection().streams());
        return streamer.start().whenComplete((result, error) -> streamer.close());
    }

    private Arm train(
            final LocalCluster cluster,
            final Path stateDir,
            final String job,
            final String topic,
            final long count,
            final OnlineRun.Supply supply)
            throws InterruptedException {
        final TopicSpec source = new TopicSpec(
                topic,
                List.of(ExampleRecords.FEATURES),
                ExampleRecords.LABEL,
                List.of(),
                false,
                count,
                List.of(),
                TopicSpec.DEFAULT_WINDOW,
                TopicSpec.DEFAULT_LINGER_MS);
        final JobSpec spec = DemoJobs.defaults(
                        Models.create(model, 784, 10),
                        1,
                        job,
                        source.toString(),
                        (int) Math.min(Integer.MAX_VALUE, count),
                        workers,
                        batch,
                        1,
                        seed)
                .build();
        final OnlineTally tally = new OnlineTally(TopicSpec.DEFAULT_WINDOW, window -> {});
        final OnlineRun.Result result =
                new OnlineRun(cluster.connection(), topicPrefix, stateDir, 1).run(spec, supply, tally);
        final OnlineTally.Summary summary = tally.summary();
        return new Arm(summary.examples(), result.streamingSeconds(), summary);
    }

    private ObjectNode report(final StreamResult produced, final Arm backlog, final double half, final Arm live) {
        final ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("scenario", OnlineCommand.SCENARIO);
        root.put("model", model);
        root.put("dataset", DATA);
        root.put("workers", workers);
        root.put("batch", batch);
        root.put("producer_examples_per_second", produced.rate());
        root.put("sustained_examples_per_second", backlog.rate());
        root.put("ratio_to_producer", backlog.rate() / produced.rate());
        root.put("backlog_examples", backlog.examples());
        root.put("backlog_seconds", backlog.seconds());
        root.put(
                "backlog_final_accuracy",
                backlog.summary().last() == null
                        ? Double.NaN
                        : backlog.summary().last().accuracy());
        final ObjectNode atHalf = root.putObject("at_half_rate");
        atHalf.put("rate", half);
        atHalf.put("examples", live.examples());
        atHalf.put("seconds", live.seconds());
        atHalf.put("freshness_ms_p50", live.summary().freshnessP50Ms());
        atHalf.put("freshness_ms_p99", live.summary().freshnessP99Ms());
        atHalf.put("freshness_samples", live.summary().freshnessSamples());
        atHalf.put("max_lag", live.summary().maxLag());
        final ObjectNode plots = root.putObject("plots");
        plots.put("rates", OnlinePlots.RATES);
        plots.put("windows", OnlinePlots.WINDOWS);
        return root;
    }
}
