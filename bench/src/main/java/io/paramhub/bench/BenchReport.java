package io.paramhub.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.worker.ComputeEmulation;
import io.paramhub.worker.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bench's {@code report.json}; its schema is documented in {@code docs/benchmarks.md}. Speed-ups
 * over {@code bsp} are ratios of the times in the same report: {@code speedup_vs_bsp} of time to
 * target, {@code train_speedup_vs_bsp} of training time (the same work for every policy); null when
 * {@code bsp} was not run or a time is missing.
 */
final class BenchReport {

    static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchReport() {}

    static ObjectNode toJson(
            final BenchSettings settings,
            final List<PolicyRun> runs,
            final double wallSeconds,
            final String bootstrapServers,
            final boolean embedded,
            final Map<String, String> plots) {
        final ObjectNode root = JSON.createObjectNode();
        root.put("schema_version", SCHEMA_VERSION);
        root.put("scenario", settings.scenario().label());
        root.put("scenario_description", settings.scenario().description());
        root.put("workers", settings.workers());
        root.put("task", settings.task().name());
        root.put("dataset", settings.task().dataset());
        root.put("model", settings.task().model());
        root.put("metric", settings.task().metric());
        root.put("lower_is_better", settings.task().lowerIsBetter());
        root.put("target", settings.target());
        root.put("seed", settings.seed());
        root.put("epochs", settings.epochs());
        root.put("iterations", settings.clocks());
        root.put("batch", settings.batch());
        root.put("shards", settings.shards());
        root.put("optimizer", settings.task().optimizer().name().toLowerCase(Locale.ROOT));
        root.put("learning_rate", settings.learningRate());
        root.put("learning_rate_schedule", settings.task().schedule().name().toLowerCase(Locale.ROOT));
        root.put("momentum", settings.momentum());
        root.put("async_momentum", settings.asyncMomentum());
        root.put("staleness", settings.staleness());
        root.put("ideal_time_s", settings.idealSeconds());
        root.put("wall_seconds", wallSeconds);
        root.put("bootstrap_servers", bootstrapServers);
        root.put("embedded_broker", embedded);
        root.set("emulation", emulation(settings));
        final Optional<PolicyRun> bsp =
                runs.stream().filter(run -> run.policy() == Policy.BSP).findFirst();
        final ArrayNode policies = root.putArray("policies");
        for (final PolicyRun run : runs) {
            policies.add(policy(run, bsp.orElse(null), settings.idealSeconds()));
        }
        final ObjectNode plotFiles = root.putObject("plots");
        plots.forEach(plotFiles::put);
        return root;
    }

    private static ObjectNode emulation(final BenchSettings settings) {
        final ObjectNode node = JSON.createObjectNode();
        node.put("sample_cost_us", settings.sampleCostMicros());
        node.put(
                "note",
                "Compute is emulated: every sample costs at least sample_cost_us microseconds of compute "
                        + "on one thread (the real gradient is computed, the rest is padded by sleeping), times the worker's "
                        + "slowdown. These are not real model costs.");
        final ArrayNode workers = node.putArray("workers");
        settings.emulations().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(entry -> {
                    final ComputeEmulation emulation = entry.getValue();
                    final ObjectNode worker = workers.addObject();
                    worker.put("worker", WorkerSettings.workerId(entry.getKey()));
                    worker.put("slowdown", emulation.slowdown());
                    worker.put("slowdown_from_clock", emulation.slowdownFromClock());
                    if (!emulation.schedule().isEmpty()) {
                        final ArrayNode steps = worker.putArray("schedule");
                        emulation
                                .schedule()
                                .forEach((clock, factor) -> steps.addObject()
                                        .put("from_clock", clock)
                                        .put("slowdown", factor));
                    }
                });
        return node;
    }

    private static ObjectNode policy(final PolicyRun run, final PolicyRun bsp, final double idealS) {
        final PolicyOutcome outcome = run.outcome();
        final ObjectNode node = JSON.createObjectNode();
        node.put("name", run.policy().label());
        node.put("job", outcome.job());
        node.put("sync", run.policy().sync().name().toLowerCase(Locale.ROOT));
        node.put("orchestrated", run.policy().orchestrated());
        node.put("staleness", run.staleness());
        if (run.servers() != null) {
            node.set("servers", run.servers());
        }
        putNullable(node, "time_to_target_s", outcome.timeToTargetS());
        putNullable(
                node,
                "speedup_vs_bsp",
                bsp == null ? null : ratio(bsp.outcome().timeToTargetS(), outcome.timeToTargetS()));
        node.put("train_time_s", outcome.trainTimeS());
        putNullable(
                node,
                "train_speedup_vs_bsp",
                bsp == null ? null : ratio(bsp.outcome().trainTimeS(), outcome.trainTimeS()));
        putNullable(node, "efficiency_vs_ideal", outcome.efficiencyVsIdeal());
        node.put("iter_time_mean_ms", outcome.iterTimeMeanMs());
        node.put("iter_time_sd_ms", outcome.iterTimeSdMs());
        node.put("compute_time_mean_ms", outcome.computeTimeMeanMs());
        node.put("compute_time_sd_ms", outcome.computeTimeSdMs());
        node.put("idle_fraction", outcome.idleFraction());
        node.put("utilization", outcome.utilization());
        node.put("compute_critical_path_s", outcome.computeCriticalPathS());
        putNullable(
                node,
                "critical_path_efficiency_vs_ideal",
                idealS > 0 && outcome.computeCriticalPathS() > 0 ? idealS / outcome.computeCriticalPathS() : null);
        node.put("final_metric", outcome.finalMetric());
        node.put("wall_seconds", run.wallSeconds());
        final ArrayNode workers = node.putArray("per_worker");
        for (final PolicyOutcome.WorkerSummary worker : outcome.perWorker()) {
            workers.addObject()
                    .put("worker", worker.worker())
                    .put("iterations", worker.iterations())
                    .put("samples", worker.samples())
                    .put("compute_s", worker.computeS())
                    .put("wait_s", worker.waitS())
                    .put("start_wait_s", worker.startWaitS())
                    .put("speed", worker.speed())
                    .put("last_share", worker.lastShare())
                    .put("last_threads", worker.lastThreads());
        }
        final ArrayNode metric = node.putArray("metric_over_time");
        for (final PolicyOutcome.MetricPoint point : outcome.metricOverTime()) {
            metric.addObject()
                    .put("t_s", point.timeS())
                    .put("version", point.version())
                    .put("metric", point.metric());
        }
        final ArrayNode windows = node.putArray("iter_time_over_time");
        for (final PolicyOutcome.IterationWindow window : outcome.iterTimeOverTime()) {
            windows.addObject()
                    .put("from_s", window.fromS())
                    .put("to_s", window.toS())
                    .put("iterations", window.iterations())
                    .put("mean_ms", window.meanMs())
                    .put("sd_ms", window.sdMs());
        }
        return node;
    }

    /** {@code numerator / denominator}, null when either is missing or the denominator is 0. */
    static Double ratio(final Double numerator, final Double denominator) {
        if (numerator == null || denominator == null || denominator == 0) {
            return null;
        }
        return numerator / denominator;
    }

    private static void putNullable(final ObjectNode node, final String field, final Double value) {
        if (value == null) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }

    static void write(final Path file, final ObjectNode report) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), report);
    }
}
