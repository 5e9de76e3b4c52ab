package io.paramhub.orchestrator.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.SyncMode;
import io.paramhub.schemas.FloatPacking;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One job's board: what the snapshot says from hand-made records of jobs, telemetry, commands and model. */
class JobBoardTest {

    private static final String JOB = "j";
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void shouldShowEveryWorkerWithItsBarrierWaitAndTheOrchestratorsFlags() {
        // given
        final JobBoard board = new JobBoard(JOB);
        board.onSpec(spec(2));
        board.onTelemetry(telemetry("worker-000", 0, 64, 10.0, 90.0));
        board.onTelemetry(telemetry("worker-000", 1, 64, 10.0, 30.0));
        board.onTelemetry(telemetry("worker-001", 0, 64, 30.0, 0.0));
        final PlannerView planner = new PlannerView(
                0,
                Map.of(
                        "worker-000", new PlannerView.Judgement(6400, false, 0.75, 1),
                        "worker-001", new PlannerView.Judgement(2133, true, 0.25, 1)));

        // when
        final JsonObject snapshot = board.snapshot(planner, true, T0);

        // then
        final JsonArray workers = snapshot.getJsonArray("workers");
        assertThat(workers).hasSize(2);
        final JsonObject fast = workers.getJsonObject(0);
        assertThat(fast.getString("worker")).isEqualTo("worker-000");
        assertThat(fast.getLong("clock")).isEqualTo(1);
        assertThat(fast.getDouble("waitMs")).isEqualTo(30.0);
        assertThat(fast.getDouble("meanWaitMs")).isEqualTo(60.0);
        assertThat(fast.getDouble("waitFraction")).isEqualTo(120.0 / 140.0);
        assertThat(fast.getBoolean("straggler")).isFalse();
        assertThat(fast.getDouble("speed")).isEqualTo(6400.0);
        final JsonObject slow = workers.getJsonObject(1);
        assertThat(slow.getBoolean("straggler")).isTrue();
        assertThat(slow.getDouble("plannedShare")).isEqualTo(0.25);
        assertThat(snapshot.getJsonObject("orchestrator").getBoolean("planning"))
                .isTrue();
        assertThat(snapshot.getJsonObject("spec").getInteger("workers")).isEqualTo(2);
        assertThat(snapshot.getJsonObject("loss").getJsonArray("points")).hasSize(2);
    }

    @Test
    void shouldIgnoreTelemetryOlderThanTheWorkersNewest() {
        // given
        final JobBoard board = new JobBoard(JOB);
        board.onTelemetry(telemetry("worker-000", 5, 64, 10.0, 1.0));
        final long changes = board.changes();

        // when
        board.onTelemetry(telemetry("worker-000", 4, 64, 10.0, 1.0));

        // then
        assertThat(board.changes()).isEqualTo(changes);
        assertThat(board.snapshot(null, true, T0)
                        .getJsonArray("workers")
                        .getJsonObject(0)
                        .getLong("clock"))
                .isEqualTo(5);
    }

    @Test
    void shouldWriteNoNumberJsonCannotHoldBeforeAnyPlan() {
        // given: a worker the orchestrator has judged but not planned for yet
        final JobBoard board = new JobBoard(JOB);
        board.onTelemetry(telemetry("worker-000", 0, 64, 10.0, 1.0));
        final PlannerView planner =
                new PlannerView(-1, Map.of("worker-000", new PlannerView.Judgement(0, false, Double.NaN, 0)));

        // when
        final String json = board.snapshot(planner, false, T0).encode();

        // then
        assertThat(json).doesNotContain("NaN").doesNotContain("Infinity");
        assertThat(new JsonObject(json).getJsonArray("workers").getJsonObject(0).getValue("plannedShare"))
                .isNull();
    }

    @Test
    void shouldNotHoldAModelByAForgedShardCountBeforeTheSpec() {
        // given: no spec read yet
        final JobBoard board = new JobBoard(JOB);

        // when: a record claiming 2e9 shards, then the aggregator's
        final boolean forged = board.onModel(shard(0, 5, 9f, 2_000_000_000, 2));
        final boolean forgedHeld = board.holdsModel();
        final boolean real = board.onModel(shard(0, 0, 0f));

        // then
        assertThat(forged).isFalse();
        assertThat(forgedHeld).isFalse();
        assertThat(real).isTrue();
        assertThat(board.holdsModel()).isTrue();
    }

    @Test
    void shouldSizeTheModelByTheSpecsShardCount() {
        // given
        final JobBoard board = new JobBoard(JOB);
        board.onSpec(spec(2));

        // when: the first record read claims 2e9 shards
        board.onModel(shard(0, 0, 0f, 2_000_000_000, 2));
        board.onModel(shard(1, 0, 0f));

        // then: two shards make the whole model
        assertThat(board.pendingEvaluation().model().version()).isZero();
    }

    @Test
    void shouldHandOutEachWholeModelOfOneVersionOnceAndNeverAMixOfVersions() {
        // given
        final JobBoard board = new JobBoard(JOB);
        board.onSpec(spec(2));

        // when / then: shard 0 at version 1 while shard 1 is at 0 is no model to evaluate
        board.onModel(shard(0, 0, 0f));
        assertThat(board.pendingEvaluation()).isNull();
        board.onModel(shard(1, 0, 0f));
        final JobBoard.Pending first = board.pendingEvaluation();
        assertThat(first.model().version()).isZero();
        assertThat(board.pendingEvaluation()).isNull();
        board.onModel(shard(0, 1, 1f));
        assertThat(board.pendingEvaluation()).isNull();
        board.onModel(shard(1, 1, 1f));
        final JobBoard.Pending second = board.pendingEvaluation();
        assertThat(second.model().version()).isEqualTo(1);
        assertThat(second.model().assemble(4)).containsExactly(1f, 1f, 1f, 1f);
        assertThat(board.snapshot(null, true, T0).getJsonObject("model").getLong("version"))
                .isEqualTo(1);
    }

    @Test
    void shouldGroupCommandsIntoPlansNewestFirst() {
        // given
        final JobBoard board = new JobBoard(JOB);

        // when
        board.onCommand(command("worker-000", 0, 0.5));
        board.onCommand(command("worker-001", 0, 0.5));
        board.onCommand(command("worker-000", 1, 0.7));
        board.onCommand(command("worker-001", 1, 0.3));

        // then
        final JsonObject commands = board.snapshot(null, true, T0).getJsonObject("commands");
        assertThat(commands.getLong("newestEpoch")).isEqualTo(1);
        final JsonArray plans = commands.getJsonArray("plans");
        assertThat(plans).hasSize(2);
        assertThat(plans.getJsonObject(0).getLong("epoch")).isEqualTo(1);
        assertThat(plans.getJsonObject(0).getJsonArray("workers")).hasSize(2);
        assertThat(plans.getJsonObject(0)
                        .getJsonArray("workers")
                        .getJsonObject(1)
                        .getDouble("share"))
                .isEqualTo(0.3);
    }

    @Test
    void shouldSayWhyThereIsNoTestMetricWhenTheTestSetCannotBeHad() {
        // given
        final JobBoard board = new JobBoard(JOB);
        board.onSpec(spec(2));
        board.onModel(shard(0, 0, 0f));
        board.onModel(shard(1, 0, 0f));
        final TestSets missing = TestSets.loading(List.of(Path.of("/")));

        // when: the spec names a Fashion-MNIST directory the dashboard may read, but that is not there
        ModelEvaluator.evaluate(
                board,
                new JobBoard.Pending(
                        JobSpec.newBuilder(spec(2))
                                .setDataset("fashion-mnist:/nonexistent")
                                .build(),
                        board.pendingEvaluation().model()),
                missing);

        // then
        final JsonObject test = board.snapshot(null, true, T0).getJsonObject("test");
        assertThat(test.getString("unavailable")).startsWith("no test set: Fashion-MNIST file");
        assertThat(test.getJsonArray("points")).isEmpty();
    }

    @Test
    void shouldScoreTheModelOnTheJobsTestSet() {
        // given: linear regression on a generated problem, every parameter 0
        final JobBoard board = new JobBoard(JOB);
        final JobSpec spec = JobSpec.newBuilder(spec(1))
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setParameters(4)
                .build();
        board.onSpec(spec);
        board.onModel(shard(0, 3, 0f, 1, 4));

        // when
        ModelEvaluator.evaluate(board, board.pendingEvaluation(), TestSets.loading());

        // then
        final JsonObject test = board.snapshot(null, true, T0).getJsonObject("test");
        assertThat(test.getString("metric")).isEqualTo("rmse");
        assertThat(test.getString("unavailable")).isNull();
        final JsonArray point = test.getJsonArray("points").getJsonArray(0);
        assertThat(point.getLong(1)).isEqualTo(3);
        assertThat(point.getDouble(2)).isPositive();
    }

    private static JobSpec spec(final int shards) {
        return JobSpec.newBuilder()
                .setJob(JOB)
                .setModel("linear")
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setOutputs(1)
                .setParameters(4)
                .setShards(shards)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setMomentum(0.0)
                .setGlobalBatch(128)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(7)
                .setCreatedAt(Instant.ofEpochMilli(T0))
                .build();
    }

    private static IterationTelemetry telemetry(
            final String worker, final long clock, final int samples, final double computeMs, final double waitMs) {
        return IterationTelemetry.newBuilder()
                .setJob(JOB)
                .setWorker(worker)
                .setClock(clock)
                .setSamples(samples)
                .setComputeMs(computeMs)
                .setWaitMs(waitMs)
                .setThreads(1)
                .setBatchShare(0.5)
                .setCommandEpoch(-1)
                .setLoss(samples * 0.5)
                .setTimestamp(Instant.ofEpochMilli(T0 + clock))
                .build();
    }

    private static ModelShard shard(final int shard, final long version, final float value) {
        return shard(shard, version, value, 2, 2);
    }

    private static ModelShard shard(
            final int shard, final long version, final float value, final int shards, final int size) {
        final float[] values = new float[size];
        Arrays.fill(values, value);
        return ModelShard.newBuilder()
                .setJob(JOB)
                .setShard(shard)
                .setShards(shards)
                .setFirstParameter(shard * size)
                .setVersion(version)
                .setMinClock(version)
                .setValues(FloatPacking.pack(values))
                .setUpdatedAt(Instant.ofEpochMilli(T0 + version))
                .build();
    }

    private static ResourceCommand command(final String worker, final long planVersion, final double share) {
        return ResourceCommand.newBuilder()
                .setJob(JOB)
                .setWorker(worker)
                .setEpoch(planVersion)
                .setThreads(1)
                .setBatchShare(share)
                .setReason("plan " + planVersion)
                .setSpeeds(Map.of())
                .setIssuedAt(Instant.ofEpochMilli(T0 + planVersion))
                .build();
    }
}
