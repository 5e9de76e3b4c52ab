package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerEvaluation;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.WorkerIds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything the dashboard shows of one job, built from the records of {@code jobs}, {@code telemetry},
 * {@code commands} and {@code model} and the test metrics the {@link ModelEvaluator} computes, turned
 * into one JSON snapshot ({@link #snapshot}) together with the orchestrator's own view of the job
 * (speeds, straggler flags and planned allocation, a {@link PlannerView} of its store). Thread-safe: the feed
 * and the evaluator write, and the last published snapshot is read without a lock.
 *
 * <p>The snapshot's {@code epoch} (orchestrator and each plan), {@code newestEpoch}, {@code planEpoch} and
 * {@code commandEpoch} are plan versions, not passes over the data: the keys keep the names of the Avro
 * fields they come from, which the page and docs/using.md ("Live dashboard") use.
 */
final class JobBoard {

    static final int CURVE_POINTS = 400;
    static final int PLANS_SHOWN = 20;

    /** A snapshot as published to the page, numbered so that a stream sends each once. */
    record Published(long seq, String json) {}

    /** A model to evaluate, with the job it belongs to. */
    record Pending(JobSpec spec, ModelTracker.Aligned model) {}

    private final String job;
    private final SortedMap<String, WorkerTrack> workers = new TreeMap<>();
    private final LossCurve loss = new LossCurve(CURVE_POINTS);
    private final CommandLog commands = new CommandLog(PLANS_SHOWN);
    private final TestCurve test = new TestCurve(CURVE_POINTS);
    private JobSpec spec;
    private ModelTracker model;
    /** What the board shows of the model {@link #releaseModel} let go of. */
    private ModelTracker.Figures released = ModelTracker.Figures.NONE;

    private long lastRecordMs = -1;
    private long changes;
    private volatile Published published;

    JobBoard(final String job) {
        this.job = job;
    }

    String job() {
        return job;
    }

    /** The data set the job's spec names, null before its spec is read. */
    synchronized String dataset() {
        return spec == null ? null : spec.getDataset();
    }

    synchronized void onSpec(final JobSpec value) {
        spec = value;
        changed(value.getCreatedAt().toEpochMilli());
    }

    /**
     * Whether {@code worker} is one of the job's workers ({@link WorkerIds#belongsTo}); before the spec is read, any
     * worker id. Records of others are not taken, so a board holds at most the job's workers.
     */
    synchronized boolean ofJob(final String worker) {
        return spec != null ? WorkerIds.belongsTo(spec, worker) : WorkerIds.indexOf(worker) >= 0;
    }

    synchronized void onTelemetry(final IterationTelemetry telemetry) {
        if (!ofJob(telemetry.getWorker())) {
            return;
        }
        if (workers.computeIfAbsent(telemetry.getWorker(), name -> new WorkerTrack())
                .record(telemetry)) {
            // in a hybrid job the last pipeline stage alone computes the loss of the samples all stages compute
            if (spec == null || telemetry.getStage() == spec.getStages() - 1) {
                loss.add(telemetry.getClock(), telemetry.getLoss(), telemetry.getSamples());
            }
            if (telemetry.getEvaluation() != null) {
                onWorkerEvaluation(telemetry);
            }
            changed(telemetry.getTimestamp().toEpochMilli());
        }
    }

    /** A worker's own evaluation (an external model's, which the dashboard cannot run) as a test-curve point. */
    private void onWorkerEvaluation(final IterationTelemetry telemetry) {
        final WorkerEvaluation evaluation = telemetry.getEvaluation();
        test.add(
                "accuracy",
                evaluation.getSamples(),
                new TestCurve.Point(
                        telemetry.getClock(),
                        evaluation.getVersion(),
                        evaluation.getAccuracy(),
                        telemetry.getTimestamp().toEpochMilli()));
    }

    synchronized void onCommand(final ResourceCommand command) {
        if (ofJob(command.getWorker()) && commands.add(command)) {
            changed(command.getIssuedAt().toEpochMilli());
        }
    }

    /**
     * Takes one record of the job's model; says whether the board started holding a model with it. The model is
     * held with the shard count of the job's spec, or, before the spec is read, of the first record whose count a
     * valid spec can have ({@link JobSpecs#MAX_SHARDS}): a forged count is never allocated.
     */
    synchronized boolean onModel(final ModelShard shard) {
        final int shards = spec != null ? spec.getShards() : shard.getShards();
        if (model == null && (shards < 1 || shards > JobSpecs.MAX_SHARDS)) {
            return false;
        }
        final boolean starts = model == null;
        if (starts) {
            model = new ModelTracker(job, shards);
        }
        if (model.offer(shard)) {
            changed(shard.getUpdatedAt().toEpochMilli());
        }
        return starts;
    }

    /** Whether the board holds the job's model: its newest shards, up to the whole parameter vector. */
    synchronized boolean holdsModel() {
        return model != null;
    }

    /**
     * Lets go of the model's shards, keeping its version, minClock and plan version for the snapshot, so a
     * job nobody trains any more costs no more than its curves. A model record read later makes the
     * board hold the model again.
     */
    synchronized void releaseModel() {
        if (model != null) {
            released = model.figures();
            model = null;
        }
    }

    /** The newest whole model of one version not yet handed out, with its job's spec; null if none. */
    synchronized Pending pendingEvaluation() {
        if (spec == null || model == null || test.unavailableBecause() != null) {
            return null;
        }
        final ModelTracker.Aligned aligned = model.takeNewAligned();
        return aligned == null ? null : new Pending(spec, aligned);
    }

    synchronized void onEvaluated(final String metric, final int testSamples, final TestCurve.Point point) {
        test.add(metric, testSamples, point);
        changes++;
    }

    synchronized void onTestUnavailable(final String why) {
        test.unavailable(why);
        changes++;
    }

    /** Counts every change; a snapshot is worth rebuilding when it moved. */
    synchronized long changes() {
        return changes;
    }

    /** Timestamp of the newest record seen of the job, -1 before any. */
    synchronized long lastRecordMs() {
        return lastRecordMs;
    }

    /** When the job was submitted, or its first record if its spec has not been read. */
    synchronized long createdAtMs() {
        return spec != null ? spec.getCreatedAt().toEpochMilli() : lastRecordMs;
    }

    /** One line of the job list: name, model, data set, workers, when submitted and last heard of. */
    synchronized JsonObject summary() {
        final JsonObject summary =
                new JsonObject().put("job", job).put("createdAt", createdAtMs()).put("lastRecordAt", lastRecordMs);
        if (spec != null) {
            summary.put("model", spec.getModel())
                    .put("dataset", spec.getDataset())
                    .put("workers", spec.getExpectedWorkers());
        }
        return summary;
    }

    /**
     * The whole board as JSON. {@code planner} is the orchestrator's state of the job, null when it holds
     * none here; {@code planning} says whether the orchestrator issues commands at all.
     */
    synchronized JsonObject snapshot(final PlannerView planner, final boolean planning, final long nowMs) {
        return new JsonObject()
                .put("job", job)
                .put("at", nowMs)
                .put("lastRecordAt", lastRecordMs)
                .put("spec", specJson())
                .put(
                        "orchestrator",
                        new JsonObject()
                                .put("planning", planning)
                                .put("known", planner != null)
                                .put("epoch", planner == null ? -1 : planner.planVersion()))
                .put("model", modelJson())
                .put("workers", workersJson(planner))
                .put("loss", lossJson())
                .put("test", testJson())
                .put("commands", commandsJson());
    }

    Published published() {
        return published;
    }

    void publish(final Published snapshot) {
        published = snapshot;
    }

    private void changed(final long recordMs) {
        changes++;
        lastRecordMs = Math.max(lastRecordMs, recordMs);
    }

    private JsonObject modelJson() {
        final ModelTracker.Figures figures = model != null ? model.figures() : released;
        return new JsonObject()
                .put("version", figures.version())
                .put("minClock", figures.minClock())
                .put("planEpoch", figures.planVersion());
    }

    private JsonObject specJson() {
        if (spec == null) {
            return null;
        }
        return new JsonObject()
                .put("model", spec.getModel())
                .put("dataset", spec.getDataset())
                .put("syncMode", spec.getSyncMode().toString())
                .put("staleness", spec.getStaleness())
                .put("workers", spec.getExpectedWorkers())
                .put("globalBatch", spec.getGlobalBatch())
                .put("epochs", spec.getEpochs())
                .put("shards", spec.getShards())
                .put("parameters", spec.getParameters())
                .put("optimizer", spec.getOptimizer().toString())
                .put("learningRate", spec.getLearningRate())
                .put("createdAt", spec.getCreatedAt().toEpochMilli());
    }

    private JsonArray workersJson(final PlannerView planner) {
        final TreeSet<String> names = new TreeSet<>(workers.keySet());
        if (planner != null) {
            names.addAll(planner.workers().keySet());
        }
        final JsonArray rows = new JsonArray();
        for (final String name : names) {
            final JsonObject row = new JsonObject().put("worker", name);
            final WorkerTrack track = workers.get(name);
            final IterationTelemetry last = track == null ? null : track.last();
            if (last != null) {
                row.put("clock", last.getClock())
                        .put("iterations", track.iterations())
                        .put("samples", last.getSamples())
                        .put("threads", last.getThreads())
                        .put("share", finite(last.getBatchShare()))
                        .put("commandEpoch", last.getCommandEpoch())
                        .put("waitMs", finite(last.getWaitMs()))
                        .put("meanWaitMs", finite(track.meanWaitMs()))
                        .put("meanComputeMs", finite(track.meanComputeMs()))
                        .put("waitFraction", finite(track.waitFraction()))
                        .put("lastSeenAt", last.getTimestamp().toEpochMilli());
            }
            final PlannerView.Judgement judged =
                    planner == null ? null : planner.workers().get(name);
            if (judged != null) {
                row.put("speed", judged.speed() > 0 ? finite(judged.speed()) : null)
                        .put("straggler", judged.straggler())
                        .put("plannedShare", finite(judged.plannedShare()))
                        .put("plannedThreads", judged.plannedThreads() > 0 ? judged.plannedThreads() : null);
            }
            rows.add(row);
        }
        return rows;
    }

    private JsonObject lossJson() {
        final JsonArray points = new JsonArray();
        loss.points()
                .forEach(point ->
                        points.add(new JsonArray().add(point.firstClock()).add(point.meanLoss())));
        return new JsonObject().put("width", loss.width()).put("points", points);
    }

    private JsonObject testJson() {
        final JsonArray points = new JsonArray();
        test.points()
                .forEach(point -> points.add(new JsonArray()
                        .add(point.clock())
                        .add(point.version())
                        .add(point.value())
                        .add(point.evaluatedAtMs())));
        return new JsonObject()
                .put("metric", test.metric())
                .put("samples", test.testSamples())
                .put("unavailable", test.unavailableBecause())
                .put("points", points);
    }

    private JsonObject commandsJson() {
        final JsonArray plans = new JsonArray();
        for (final CommandLog.IssuedPlan plan : commands.newestFirst()) {
            final JsonArray byWorker = new JsonArray();
            plan.byWorker()
                    .forEach((worker, command) -> byWorker.add(new JsonObject()
                            .put("worker", worker)
                            .put("share", finite(command.getBatchShare()))
                            .put("threads", command.getThreads())));
            plans.add(new JsonObject()
                    .put("epoch", plan.version())
                    .put("issuedAt", plan.issuedAtMs())
                    .put("reason", plan.reason())
                    .put("workers", byWorker));
        }
        return new JsonObject().put("newestEpoch", commands.newestVersion()).put("plans", plans);
    }

    /** JSON has no NaN or infinity. */
    private static Double finite(final double value) {
        return Double.isFinite(value) ? value : null;
    }
}
