package io.paramhub.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.online.OnlineRun;
import io.paramhub.embedded.online.OnlineTally;
import io.paramhub.ml.TopicSpec;
import io.paramhub.ml.TrainTest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code paramhub demo --online}: the demo's job trained from a topic instead of a file. The data set's training
 * examples stream into a fresh topic ({@code <prefix>examples.<job>}, a partition a worker) at {@code --rate} once
 * the workers have joined; the workers train from it until {@code --max-examples}; each prequential window is
 * printed as it closes, then the examples, dead letters and freshness; {@code --report} gets them as its
 * {@code online} object.
 */
final class OnlineDemo {

    /**
     * The global batch unless {@code --batch} is given: a clock takes at most its share of it, or what has come
     * within the linger once it holds one example, so at a steady rate clocks stay small and fresh, and a backlog
     * (the first seconds, while the JVM warms up) drains 4 times as fast as with the file demo's 128.
     */
    static final int DEFAULT_BATCH = 512;

    private final OnlineOptions options;
    private final PrintStream out;
    private final boolean batchGiven;

    OnlineDemo(final OnlineOptions options, final PrintStream out, final boolean batchGiven) {
        this.options = options;
        this.out = out;
        this.batchGiven = batchGiven;
    }

    /** {@code fileSpec}, the demo's job on a file, made a job on the topic {@code topic}. */
    JobSpec online(final JobSpec fileSpec, final String topic, final TrainTest data) {
        final long examples = options.maxExamples(data.train().size());
        final TopicSpec source = new TopicSpec(
                topic,
                List.of(DemoStream.FEATURES),
                DemoStream.LABEL,
                List.of(),
                !data.train().isClassification(),
                examples,
                List.of(),
                options.window(),
                TopicSpec.DEFAULT_LINGER_MS);
        final boolean cosine = fileSpec.getLearningRateSchedule() == LearningRateScheduleKind.COSINE;
        final int batch = batchGiven ? fileSpec.getGlobalBatch() : DEFAULT_BATCH;
        return JobSpec.newBuilder(fileSpec)
                .setDataset(source.toString())
                .setGlobalBatch(batch)
                .setEpochs(1)
                .setDecayClocks(cosine ? Math.max(1, examples / batch) : 0)
                .build();
    }

    /**
     * Runs the demo's job {@code fileSpec} on {@code data} (the data set {@code dataSpec} names) from a topic on
     * {@code cluster}; writes {@code report} when given.
     */
    void run(
            final JobSpec fileSpec,
            final TrainTest data,
            final String dataSpec,
            final LocalCluster cluster,
            final ConnectionOptions connection,
            final Path stateDir,
            final int threads,
            final Path report)
            throws InterruptedException, IOException {
        final String topicPrefix = connection.topicPrefix();
        final JobSpec spec = online(fileSpec, topicPrefix + "examples." + fileSpec.getJob(), data);
        final TopicSpec topic = TopicSpec.parse(spec.getDataset());
        final AtomicLong windowEnd = new AtomicLong();
        final OnlineTally tally = new OnlineTally(
                options.window(),
                window -> out.printf(
                        Locale.ROOT,
                        "examples %,9d: prequential accuracy %.4f, loss %.4f; freshness p99 %.0f ms%n",
                        windowEnd.addAndGet(window.examples()),
                        window.accuracy(),
                        window.loss(),
                        window.freshnessP99Ms()));
        out.printf(
                Locale.ROOT,
                "online: %,d examples of %s into topic %s at %,d a second once %d workers have joined%n",
                topic.maxExamples(),
                dataSpec,
                topic.topic(),
                options.rate(),
                spec.getExpectedWorkers());
        final OnlineRun.Result result = new OnlineRun(cluster.connection(), topicPrefix, stateDir, threads)
                .run(spec, () -> DemoStream.start(cluster, dataSpec, topic, options), tally);
        final OnlineTally.Summary summary = tally.summary();
        out.printf(
                Locale.ROOT,
                "trained %,d examples (%,d set aside) in %.1f s from the first streamed, %.0f a second; freshness "
                        + "p50 %.0f ms, p99 %.0f ms%n",
                summary.examples(),
                summary.deadLetters(),
                result.streamingSeconds(),
                summary.examples() / result.streamingSeconds(),
                summary.freshnessP50Ms(),
                summary.freshnessP99Ms());
        if (report != null) {
            RunReport.write(report, toJson(spec, result, summary));
            out.println("report written to " + report);
        }
    }

    private ObjectNode toJson(final JobSpec spec, final OnlineRun.Result result, final OnlineTally.Summary summary) {
        final ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("job", spec.getJob());
        root.put("model", spec.getModel());
        root.put("dataset", spec.getDataset());
        root.put("sync", spec.getSyncMode().name().toLowerCase(Locale.ROOT));
        root.put("workers", spec.getExpectedWorkers());
        root.put("batch", spec.getGlobalBatch());
        root.put("rate", options.rate());
        root.put("wall_seconds", result.wallSeconds());
        root.put("streaming_seconds", result.streamingSeconds());
        final ObjectNode online = root.putObject("online");
        online.put("examples", summary.examples());
        online.put("dead_letters", summary.deadLetters());
        online.put("window", options.window());
        final ArrayNode windows = online.putArray("prequential");
        for (final OnlineTally.Window window : summary.windows()) {
            windows.addObject()
                    .put("examples", window.examples())
                    .put("accuracy", window.accuracy())
                    .put("loss", window.loss())
                    .put("freshness_ms_p99", window.freshnessP99Ms());
        }
        final ObjectNode freshness = online.putObject("freshness_ms");
        freshness.put("p50", summary.freshnessP50Ms());
        freshness.put("p99", summary.freshnessP99Ms());
        freshness.put("samples", summary.freshnessSamples());
        online.put("max_lag", summary.maxLag());
        return root;
    }
}
