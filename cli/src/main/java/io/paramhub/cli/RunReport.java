package io.paramhub.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.EpochResult;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.topology.client.ModelFingerprint;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.worker.ComputeEmulation;
import io.paramhub.worker.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The JSON report of a run ({@code --report FILE}): {@code final_test_accuracy} (or
 * {@code final_test_rmse}), {@code model_sha256} (the final model's {@code ModelFingerprint}), {@code epochs},
 * {@code iterations}, {@code workers},
 * {@code wall_seconds} (split into {@code training_seconds}, from the first iteration reported to the
 * last, and {@code startup_seconds}, the rest: apps starting, the first rebalance, the job, the workers
 * joining, the first iteration, the last evaluation), the barrier wait over every worker's iterations but
 * its first ({@code wait_ms_mean}, {@code wait_ms_p50}, {@code wait_ms_p99}), {@code sync}, the observed staleness
 * of applied gradients in model versions ({@code staleness_max}, {@code staleness_p99}), {@code dead_letters}, the job's settings, the
 * emulated heterogeneity ({@code emulation}: sample cost and slowdowns, so nobody mistakes it for a
 * real cost), {@code fast_worker_wait_fraction} (the share of the workers without a slowdown's time,
 * after their first iteration, spent waiting at the barrier), one entry per worker ({@code speed} in
 * samples per compute-second, final {@code share} and {@code threads}, mean compute and barrier
 * wait per iteration) and one per epoch. A hybrid job ({@code stages} > 1) adds {@code stages},
 * {@code replicas}, {@code micro_batches}, {@code activation_bytes} (activations and their gradients moved
 * between stages, counted once, at the sender), {@code max_parameters_fraction} (the largest share of the
 * parameters one worker holds), per stage its workers' mean compute and waits ({@code per_stage}), and per
 * worker its {@code stage}, {@code parameters_held} (and fraction), {@code activation_bytes} (sent and
 * received) and {@code activation_wait_ms_mean}.
 */
final class RunReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunReport() {}

    static ObjectNode toJson(
            final TrainingRun.Result result, final WorkerTally tally, final Map<Integer, ComputeEmulation> emulations) {
        final JobSpec spec = result.job().spec();
        final ObjectNode root = JSON.createObjectNode();
        root.put("job", spec.getJob());
        root.put("model", spec.getModel());
        root.put("dataset", spec.getDataset());
        root.put("sync", spec.getSyncMode().name().toLowerCase(Locale.ROOT));
        root.put("staleness_bound_clocks", spec.getStaleness());
        root.put("gradient_encoding", spec.getGradientEncoding().name().toLowerCase(Locale.ROOT));
        root.put("pipeline_depth", spec.getPipelineDepth());
        final boolean hybrid = StagePlan.hybrid(spec);
        if (hybrid) {
            addStages(root, spec, tally);
        }
        root.put("workers", spec.getExpectedWorkers());
        root.put("shards", spec.getShards());
        root.put("batch", spec.getGlobalBatch());
        root.put("optimizer", spec.getOptimizer().name().toLowerCase(Locale.ROOT));
        root.put("learning_rate", spec.getLearningRate());
        root.put("learning_rate_schedule", spec.getLearningRateSchedule().name().toLowerCase(Locale.ROOT));
        root.put("epochs", spec.getEpochs());
        root.put("iterations", result.job().iterations());
        root.put("wall_seconds", result.wallSeconds());
        root.put("iterations_per_second", result.job().iterations() / result.wallSeconds());
        root.put("training_seconds", tally.trainingSeconds());
        root.put("startup_seconds", result.wallSeconds() - tally.trainingSeconds());
        root.put("wait_ms_mean", tally.meanWaitMs());
        root.put("wait_ms_p50", tally.waitMsPercentile(50));
        root.put("wait_ms_p99", tally.waitMsPercentile(99));
        root.put("final_test_" + result.last().metric(), result.last().testMetric());
        // the same model bit for bit, wherever it was trained: compare with a submitted job's (docs/operating.md)
        root.put("model_sha256", ModelFingerprint.sha256(result.finalParameters()));
        root.put("dead_letters", result.deadLetters());
        root.put("staleness_max", result.stalenessMax());
        root.put("staleness_p99", result.stalenessP99());
        root.put("fast_worker_wait_fraction", tally.waitFraction(fastWorkers(emulations)));
        final ArrayNode emulated = root.putObject("emulation").putArray("workers");
        emulations.forEach((index, emulation) -> {
            if (emulation.active()) {
                emulated.addObject()
                        .put("worker", WorkerSettings.workerId(index))
                        .put("sample_cost_us", emulation.sampleCostMicros())
                        .put("slowdown", emulation.slowdown())
                        .put("slowdown_from_clock", emulation.slowdownFromClock());
            }
        });
        final ArrayNode workers = root.putArray("per_worker");
        tally.totals().forEach((worker, totals) -> {
            final ObjectNode node = workers.addObject();
            node.put("worker", worker);
            node.put("iterations", totals.iterations());
            node.put("speed", totals.speed());
            node.put("share", totals.lastShare());
            node.put("threads", totals.lastThreads());
            node.put("compute_ms_mean", totals.meanComputeMs());
            node.put("wait_ms_mean", totals.meanWaitMs());
            node.put("start_wait_ms", totals.startWaitMs());
            if (hybrid) {
                node.put("stage", totals.stage());
                node.put("parameters_held", totals.parametersHeld());
                node.put("parameters_fraction", totals.parametersHeld() / (double) spec.getParameters());
                node.put("activation_bytes", totals.activationBytes());
                node.put("activation_wait_ms_mean", totals.meanActivationWaitMs());
            }
        });
        final ArrayNode epochs = root.putArray("per_epoch");
        for (final EpochResult epoch : result.epochs()) {
            final ObjectNode node = epochs.addObject();
            node.put("epoch", epoch.epoch());
            node.put("model_version", epoch.version());
            node.put("train_loss", epoch.trainLoss());
            node.put("test_" + epoch.metric(), epoch.testMetric());
            node.put("seconds", epoch.seconds());
        }
        return root;
    }

    /** A hybrid job's cut: its stages, the activation bytes, and per stage the parameters, compute and waits. */
    private static void addStages(final ObjectNode root, final JobSpec spec, final WorkerTally tally) {
        root.put("stages", spec.getStages());
        root.put("replicas", spec.getExpectedWorkers() / spec.getStages());
        root.put("micro_batches", spec.getMicroBatches());
        // each exchange is counted by its sender and its receiver: half the sum is what moved
        root.put(
                "activation_bytes",
                tally.totals().values().stream()
                                .mapToLong(WorkerTally.Totals::activationBytes)
                                .sum()
                        / 2);
        root.put(
                "max_parameters_fraction",
                tally.totals().values().stream()
                                .mapToLong(WorkerTally.Totals::parametersHeld)
                                .max()
                                .orElse(spec.getParameters())
                        / (double) spec.getParameters());
        final ArrayNode stages = root.putArray("per_stage");
        for (int stage = 0; stage < spec.getStages(); stage++) {
            final int k = stage;
            final List<WorkerTally.Totals> of = tally.totals().values().stream()
                    .filter(totals -> totals.stage() == k)
                    .toList();
            stages.addObject()
                    .put("stage", k)
                    .put("workers", of.size())
                    .put("parameters", of.isEmpty() ? 0 : of.get(0).parametersHeld())
                    .put(
                            "compute_ms_mean",
                            of.stream()
                                    .mapToDouble(WorkerTally.Totals::meanComputeMs)
                                    .average()
                                    .orElse(0))
                    .put(
                            "wait_ms_mean",
                            of.stream()
                                    .mapToDouble(WorkerTally.Totals::meanWaitMs)
                                    .average()
                                    .orElse(0))
                    .put(
                            "activation_wait_ms_mean",
                            of.stream()
                                    .mapToDouble(WorkerTally.Totals::meanActivationWaitMs)
                                    .average()
                                    .orElse(0));
        }
    }

    /** The workers never slowed down; every worker when none is. */
    static Set<String> fastWorkers(final Map<Integer, ComputeEmulation> emulations) {
        final Set<String> fast = new TreeSet<>();
        emulations.forEach((index, emulation) -> {
            if (emulation.slowdown() == 1.0) {
                fast.add(WorkerSettings.workerId(index));
            }
        });
        if (fast.isEmpty()) {
            emulations.keySet().forEach(index -> fast.add(WorkerSettings.workerId(index)));
        }
        return fast;
    }

    static void write(
            final Path file,
            final TrainingRun.Result result,
            final WorkerTally tally,
            final Map<Integer, ComputeEmulation> emulations)
            throws IOException {
        write(file, toJson(result, tally, emulations));
    }

    /** Writes a report built with {@link #toJson} (and added to) to {@code file}. */
    static void write(final Path file, final ObjectNode report) throws IOException {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writeValue(file.toFile(), report);
    }
}
