package io.paramhub.bench.roundcost;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.bench.replay.JobReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The round-cost bench's {@code report.json}: the run's settings, one entry per model (its job, the Kafka run's
 * times, barrier wait, transactions and bytes per round per topic, the in-process run and the ratio), and the
 * replay of one model against Kafka's limits. Every field is described in {@code docs/benchmarks.md}.
 */
final class RoundCostReport {

    static final int SCHEMA_VERSION = 1;
    static final String TRANSACTIONS_SOURCE = "Kafka Streams' stream-thread metric commit-total of the aggregator's "
            + "KafkaStreams (metrics()), summed over its stream threads, read at the end of training: a thread's commits "
            + "of at least one task, each one transaction of its exactly_once_v2 producer; from the aggregator's start, so "
            + "start-up commits (the job's fan-out, version 0, workers joining) are included";
    static final String BYTES_SOURCE = "Admin.describeLogDirs on every broker: the size of every partition replica, "
            + "sampled before the aggregator starts, every %d ms while the job trains and after it stops; per replica the "
            + "growth between samples is summed, per topic over its replicas (all replicas, so replication counts). A "
            + "topic is a lower_bound when one of its replicas shrank between two samples (compaction or retention): "
            + "what was written to it in that interval is not counted. Every topic of the cluster that grew is listed "
            + "(the broker's __consumer_offsets and __transaction_state included); on a shared cluster other clients' "
            + "writes count too";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RoundCostReport() {}

    /** The report; {@code replay} is null when it was skipped, for the reason {@code skipped}. */
    static ObjectNode toJson(
            final RoundCostSettings settings,
            final List<ModelCost> models,
            final String replayModel,
            final JobReplay.Outcome replay,
            final String skipped,
            final double wallSeconds,
            final String bootstrapServers,
            final boolean embedded,
            final Map<String, String> plots) {
        final ObjectNode root = JSON.createObjectNode();
        root.put("schema_version", SCHEMA_VERSION);
        root.put("scenario", RoundCostSettings.SCENARIO);
        root.put("sync", "bsp");
        root.put("dataset", settings.dataset());
        root.put("workers", settings.workers());
        root.put("batch", settings.batch());
        root.put("epochs", settings.epochs());
        root.put("seed", settings.seed());
        root.put("wall_seconds", wallSeconds);
        root.put("bootstrap_servers", bootstrapServers);
        root.put("embedded_broker", embedded);
        root.put("transactions_source", TRANSACTIONS_SOURCE);
        root.put("bytes_source", String.format(Locale.ROOT, BYTES_SOURCE, SampledTraining.SAMPLE_INTERVAL.toMillis()));
        final ArrayNode entries = root.putArray("models");
        for (final ModelCost model : models) {
            entries.add(model(model));
        }
        root.set("replay", replay == null ? skipped(replayModel, skipped) : replay(replayModel, replay));
        final ObjectNode files = root.putObject("plots");
        plots.forEach(files::put);
        return root;
    }

    static ObjectNode model(final ModelCost cost) {
        final JobSpec spec = cost.spec();
        final ObjectNode node = JSON.createObjectNode();
        node.put("model", spec.getModel());
        node.put("job", spec.getJob());
        node.put("parameters", spec.getParameters());
        node.put("shards", spec.getShards());
        node.put("optimizer", spec.getOptimizer().name().toLowerCase(Locale.ROOT));
        node.put("learning_rate", spec.getLearningRate());
        node.put("learning_rate_schedule", spec.getLearningRateSchedule().name().toLowerCase(Locale.ROOT));
        node.put("rounds", cost.rounds());
        node.put("final_test_" + cost.metric(), cost.finalTestMetric());
        node.put("wall_seconds", cost.wallSeconds());
        node.put("startup_seconds", cost.startupSeconds());
        node.put("training_seconds", cost.trainingSeconds());
        node.put("rounds_per_second", cost.roundsPerSecond());
        node.put("round_ms_mean", cost.roundMsMean());
        node.put("compute_ms_mean", cost.computeMsMean());
        node.put("wait_ms_mean", cost.waitMsMean());
        node.put("wait_ms_p50", cost.waitMsP50());
        node.put("wait_ms_p99", cost.waitMsP99());
        node.put("other_ms_mean", cost.otherMsMean());
        node.put("transactions", cost.transactions());
        node.put("transactions_per_round", cost.transactionsPerRound());
        node.put("gradient_payload_bytes_per_round", cost.gradientPayloadBytesPerRound());
        node.put("bytes_per_round", cost.bytesPerRound());
        final ArrayNode topics = node.putArray("topics");
        for (final TopicBytes topic : cost.topics()) {
            topics.addObject()
                    .put("topic", topic.topic())
                    .put("bytes_written", topic.bytesWritten())
                    .put("bytes_per_round", topic.perRound(cost.rounds()))
                    .put("size_before", topic.sizeBefore())
                    .put("size_after", topic.sizeAfter())
                    .put("lower_bound", topic.lowerBound());
        }
        node.putObject("in_process")
                .put("seconds", cost.inProcessSeconds())
                .put("threads", cost.inProcessThreads())
                .put("rounds_per_second", cost.inProcessRoundsPerSecond())
                .put("final_model_equals_kafka", cost.sameFinalModel());
        node.put("kafka_over_in_process", cost.kafkaOverInProcess());
        return node;
    }

    static ObjectNode replay(final String model, final JobReplay.Outcome replay) {
        final ObjectNode node = JSON.createObjectNode();
        node.put("model", model);
        node.put("job", replay.job());
        node.put("clocks", replay.clocks());
        node.put("gradients", replay.gradients());
        node.put("gradient_value_bytes", replay.gradientBytes());
        node.put("seconds", replay.seconds());
        node.put("replayed_version", replay.replayedVersion());
        node.put("final_model_equals_in_process", replay.sameModel());
        replay.kafka().writeTo(node.putObject("kafka_limits"));
        node.put("aggregator_mb_over_pass_through_mb", replay.kafka().megabytesRatioToPassThrough());
        return node;
    }

    /** A replay that could not run: the model and why. */
    static ObjectNode skipped(final String model, final String why) {
        final ObjectNode node = JSON.createObjectNode();
        node.put("model", model);
        node.put("skipped", why);
        return node;
    }

    static void write(final Path file, final ObjectNode report) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), report);
    }
}
