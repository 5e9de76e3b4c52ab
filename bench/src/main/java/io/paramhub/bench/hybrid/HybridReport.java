package io.paramhub.bench.hybrid;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.bench.roundcost.TopicBytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code report.json} of {@code paramhub bench --scenario hybrid}: the settings, each stage's share of the
 * model's compute, one entry per run ({@link ArmCost}, in the order run: data-parallel, then hybrid), the
 * break-even batch and the verdicts ({@link HybridVerdicts}). Byte figures are per round; the brokers'
 * bytes include record and batch overheads, the {@code *_payload_*} and {@code gradient_floats_*} figures do
 * not.
 */
final class HybridReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private HybridReport() {}

    static ObjectNode toJson(
            final HybridBenchSettings settings,
            final List<ArmCost> runs,
            final Map<String, String> verdicts,
            final Double breakEvenBatch,
            final double totalSeconds,
            final String bootstrapServers,
            final boolean embedded) {
        final ObjectNode root = JSON.createObjectNode();
        root.put("scenario", HybridBenchSettings.SCENARIO);
        root.put("model", settings.model().kind());
        root.put("parameters", settings.model().parameterCount());
        root.put("dataset", settings.dataset());
        root.put("workers", settings.workers());
        root.put("stages", settings.stages());
        root.put("replicas", settings.replicas());
        root.put("micro_batches", settings.microBatches());
        root.put("batch", settings.batch());
        root.put("epochs", settings.epochs());
        root.put("seed", settings.seed());
        root.put("sync", "bsp");
        final ObjectNode emulation = root.putObject("emulation");
        emulation.put("sample_cost_us", settings.sampleCostMicros());
        emulation.put(
                "note",
                "a data-parallel worker pays the sample cost for each of its samples; a stage worker pays its "
                        + "stage's share of it (multiply-adds), a third forward and two thirds backward");
        final ArrayNode shares = emulation.putArray("stage_compute_shares");
        for (int k = 0; k < settings.stages(); k++) {
            shares.add(settings.model().computeShare(k, settings.stages()));
        }
        final ArrayNode arms = root.putArray("runs");
        for (final ArmCost run : runs) {
            arms.add(toJson(run));
        }
        if (breakEvenBatch == null) {
            root.putNull("break_even_batch");
        } else {
            root.put("break_even_batch", breakEvenBatch);
        }
        final ObjectNode lines = root.putObject("verdicts");
        verdicts.forEach(lines::put);
        root.put("total_seconds", totalSeconds);
        root.put("bootstrap_servers", bootstrapServers);
        root.put("embedded_broker", embedded);
        return root;
    }

    private static ObjectNode toJson(final ArmCost run) {
        final ObjectNode node = JSON.createObjectNode();
        node.put("name", run.name());
        node.put("replicas", run.replicas());
        node.put("stages", run.stages());
        node.put("rounds", run.rounds());
        node.put("wall_s", run.wallSeconds());
        node.put("training_s", run.trainingSeconds());
        node.put("rounds_per_s", run.roundsPerSecond());
        node.put("compute_ms_mean", run.computeMsMean());
        node.put("wait_ms_mean", run.waitMsMean());
        node.put("stage_wait_ms_mean", run.stageWaitMsMean());
        node.put("gradient_bytes_per_round", run.gradientBytesPerRound());
        node.put("gradient_floats_per_round", run.gradientFloatsPerRound());
        node.put("activation_bytes_per_round", run.activationBytesPerRound());
        node.put("activation_payload_bytes_per_round", run.activationPayloadBytesPerRound());
        node.put("activation_payload_bytes_per_round_expected", run.expectedActivationPayloadBytesPerRound());
        node.put("model_bytes_written_per_round", run.modelBytesWrittenPerRound());
        node.put("model_bytes_read_per_round_estimate", run.modelBytesReadPerRound());
        node.put("parameters_held_max", run.parametersHeldMax());
        node.put("parameters_held_max_fraction", run.parametersHeldMaxFraction());
        node.put("test_metric_name", run.metric());
        node.put("test_metric", run.testMetric());
        final ArrayNode workers = node.putArray("per_worker");
        for (final ArmCost.WorkerCost worker : run.workers()) {
            workers.addObject()
                    .put("worker", worker.worker())
                    .put("stage", worker.stage())
                    .put("compute_ms_mean", worker.computeMs())
                    .put("wait_ms_mean", worker.waitMs())
                    .put("stage_wait_ms_mean", worker.stageWaitMs())
                    .put("parameters_held", worker.parametersHeld());
        }
        final ArrayNode topics = node.putArray("topics");
        for (final TopicBytes topic : run.topics()) {
            topics.addObject()
                    .put("topic", topic.topic())
                    .put("bytes_per_round", topic.perRound(run.rounds()))
                    .put("lower_bound", topic.lowerBound());
        }
        return node;
    }

    static void write(final Path file, final ObjectNode report) throws IOException {
        JSON.writeValue(file.toFile(), report);
    }
}
