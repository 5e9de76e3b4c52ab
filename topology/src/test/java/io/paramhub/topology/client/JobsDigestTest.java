package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.client.JobStatus.State;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tests the summary of a job built from the records of jobs, model, membership, commands and dead-letters. */
class JobsDigestTest {

    private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    @Test
    void shouldListJobsWithoutTheDeletedOnes() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("b", spec("b", 2));
        digest.job("a", spec("a", 2));
        digest.job("c", spec("c", 2));

        // when
        digest.job("c", null);

        // then
        assertThat(digest.jobs()).containsExactly("a", "b");
        assertThat(digest.statuses(NOW)).extracting(JobStatus::job).containsExactly("a", "b");
        assertThat(digest.status("c", NOW)).isEmpty();
    }

    @Test
    void shouldKeepTheValidSpecWhenAnInvalidOneFollows() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 2));

        // when: zero shards fails validation
        digest.job(
                "a",
                JobSpec.newBuilder(spec("a", 2)).setShards(0).setModel("other").build());

        // then
        assertThat(digest.status("a", NOW).orElseThrow().shards()).isEqualTo(2);
    }

    @Test
    void shouldSayNoModelYetWhenNoShardHasAVersion() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 2));

        // when
        final JobStatus status = digest.status("a", NOW).orElseThrow();

        // then
        assertThat(status.state()).isEqualTo(State.NO_MODEL);
        assertThat(status.versions()).containsExactly(-1L, -1L);
        assertThat(status.version()).isEqualTo(-1);
        assertThat(status.minClock()).isEqualTo(-1);
    }

    @Test
    void shouldTakeEachShardsNewestVersionAndTheSmallestMinClock() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 2));
        digest.membership("a/worker-000", member("a", "worker-000", WorkerState.HEARTBEAT, 7, NOW.minusSeconds(1)));

        // when
        digest.model("a/0", shard("a", 0, 6, 6, Map.of("worker-000", 6L)));
        digest.model("a/1", shard("a", 1, 6, 6, Map.of()));
        digest.model("a/0", shard("a", 0, 7, 7, Map.of("worker-000", 7L, "worker-001", 7L)));

        // then
        final JobStatus status = digest.status("a", NOW).orElseThrow();
        assertThat(status.versions()).containsExactly(7L, 6L);
        assertThat(status.versionsDiffer()).isTrue();
        assertThat(status.version()).isEqualTo(6);
        assertThat(status.minClock()).isEqualTo(6);
        assertThat(status.clocks()).containsExactly(Map.entry("worker-000", 7L), Map.entry("worker-001", 7L));
        assertThat(status.state()).isEqualTo(State.TRAINING);
        assertThat(status.totalClocks()).isEqualTo(-1);
        assertThat(status.exampleOffsets()).isEqualTo(-1);
    }

    @Test
    void shouldForgetAShardWhenItsRecordIsTombstoned() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));
        digest.model("a/0", shard("a", 0, 3, 3, Map.of()));

        // when
        digest.model("a/0", null);

        // then
        assertThat(digest.status("a", NOW).orElseThrow().state()).isEqualTo(State.NO_MODEL);
    }

    @Test
    void shouldTellLiveWorkersFromThoseThatLeftOrFellSilent() {
        // given: a 10 s session timeout
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));
        digest.model("a/0", shard("a", 0, 3, 3, Map.of()));

        // when
        digest.membership("a/worker-000", member("a", "worker-000", WorkerState.JOINED, 0, NOW.minusSeconds(20)));
        digest.membership("a/worker-000", member("a", "worker-000", WorkerState.HEARTBEAT, 3, NOW.minusSeconds(2)));
        digest.membership("a/worker-001", member("a", "worker-001", WorkerState.HEARTBEAT, 2, NOW.minusSeconds(11)));
        digest.membership("a/worker-002", member("a", "worker-002", WorkerState.LEFT, 3, NOW));
        digest.membership("b/worker-000", member("b", "worker-000", WorkerState.HEARTBEAT, 1, NOW));

        // then
        final JobStatus status = digest.status("a", NOW).orElseThrow();
        assertThat(status.liveWorkers()).containsExactly("worker-000");
        assertThat(status.members())
                .extracting(JobStatus.Member::worker, JobStatus.Member::state, JobStatus.Member::clock)
                .containsExactly(
                        tuple("worker-000", "HEARTBEAT", 3L),
                        tuple("worker-001", "HEARTBEAT", 2L),
                        tuple("worker-002", "LEFT", 3L));
        assertThat(status.state()).isEqualTo(State.TRAINING);
    }

    @Test
    void shouldSayIdleWhenAModelHasNoLiveWorker() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));
        digest.model("a/0", shard("a", 0, 30, 30, Map.of()));

        // when
        digest.membership("a/worker-000", member("a", "worker-000", WorkerState.LEFT, 30, NOW));

        // then
        assertThat(digest.status("a", NOW).orElseThrow().state()).isEqualTo(State.IDLE);
    }

    @Test
    void shouldSayDoneWhenACosineJobsEveryClockIsInTheModel() {
        // given: a cosine schedule over 40 clocks
        final JobsDigest digest = new JobsDigest();
        digest.job(
                "a",
                JobSpec.newBuilder(spec("a", 1))
                        .setLearningRateSchedule(LearningRateScheduleKind.COSINE)
                        .setDecayClocks(40)
                        .build());
        digest.membership("a/worker-000", member("a", "worker-000", WorkerState.HEARTBEAT, 39, NOW));

        // when
        digest.model("a/0", shard("a", 0, 39, 39, Map.of()));
        final JobStatus before = digest.status("a", NOW).orElseThrow();
        digest.model("a/0", shard("a", 0, 40, 40, Map.of()));
        final JobStatus after = digest.status("a", NOW).orElseThrow();

        // then
        assertThat(before.state()).isEqualTo(State.TRAINING);
        assertThat(before.totalClocks()).isEqualTo(40);
        assertThat(after.state()).isEqualTo(State.DONE);
    }

    @Test
    void shouldSayDoneOnlyWhenEveryShardsNewestRecordCarriesTheFinalMark() {
        // given: a constant-rate job of 2 shards, whose end only the aggregator's final-version mark tells
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 2));
        digest.membership("a/worker-000", member("a", "worker-000", WorkerState.HEARTBEAT, 7, NOW));

        // when
        digest.model("a/0", finalShard("a", 0, 8));
        digest.model("a/1", shard("a", 1, 8, 8, Map.of()));
        final JobStatus oneMarked = digest.status("a", NOW).orElseThrow();
        digest.model("a/1", finalShard("a", 1, 8));
        final JobStatus bothMarked = digest.status("a", NOW).orElseThrow();

        // then
        assertThat(oneMarked.state()).isEqualTo(State.TRAINING);
        assertThat(bothMarked.state()).isEqualTo(State.DONE);
    }

    private static ModelShard finalShard(final String job, final int shard, final long version) {
        return ModelShard.newBuilder(shard(job, shard, version, version, Map.of()))
                .setFinalVersion(true)
                .build();
    }

    @Test
    void shouldTakeTheNewestPlanAndItsStragglers() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));
        digest.model(
                "a/0",
                ModelShard.newBuilder(shard("a", 0, 9, 9, Map.of()))
                        .setPlanEpoch(1)
                        .build());

        // when
        digest.command("a/worker-000", command("a", "worker-000", 1, 0.5, 2, "no straggler: rebalancing"));
        digest.command("a/worker-001", command("a", "worker-001", 1, 0.5, 2, "no straggler: rebalancing"));
        final String reason = "worker-001 is a straggler: 100 samples/s vs median 300; worker-001 +1 thread";
        digest.command("a/worker-000", command("a", "worker-000", 2, 0.7, 1, reason));
        digest.command("a/worker-001", command("a", "worker-001", 2, 0.3, 3, reason));

        // then
        final JobStatus.Plan plan = digest.status("a", NOW).orElseThrow().plan();
        assertThat(plan.epoch()).isEqualTo(2);
        assertThat(plan.inForce()).isEqualTo(1);
        assertThat(plan.stragglers()).containsExactly("worker-001");
        assertThat(plan.shares()).containsExactly(Map.entry("worker-000", 0.7), Map.entry("worker-001", 0.3));
        assertThat(plan.threads()).containsExactly(Map.entry("worker-000", 1), Map.entry("worker-001", 3));
        assertThat(plan.reason()).isEqualTo(reason);
    }

    @Test
    void shouldHaveNoPlanBeforeTheOrchestratorIssuesOne() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));

        // when
        digest.command("b/worker-000", command("b", "worker-000", 1, 1.0, 1, "no straggler"));

        // then
        assertThat(digest.status("a", NOW).orElseThrow().plan()).isNull();
    }

    @Test
    void shouldCountTheJobsDeadLettersByReason() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));
        digest.job("ab", spec("ab", 1));

        // when
        digest.deadLetter("a/0", letter(DeadLetterReason.STALE, "stale gradient"));
        digest.deadLetter("a/1", letter(DeadLetterReason.STALE, "stale gradient"));
        digest.deadLetter("a", letter(DeadLetterReason.INVALID_JOB, "shards must be >= 1"));
        digest.deadLetter("ab/0", letter(DeadLetterReason.NON_FINITE, "NaN"));
        digest.deadLetter(
                "user-key-17",
                letter(DeadLetterReason.UNKNOWN_LABEL, "worker-000 of job a cannot train on it: label 12"));
        digest.deadLetter(null, letter(DeadLetterReason.MALFORMED, "not Avro"));

        // then
        final JobStatus status = digest.status("a", NOW).orElseThrow();
        assertThat(status.deadLetters())
                .containsExactly(Map.entry("INVALID_JOB", 1L), Map.entry("STALE", 2L), Map.entry("UNKNOWN_LABEL", 1L));
        assertThat(status.deadLetterCount()).isEqualTo(4);
        assertThat(digest.status("ab", NOW).orElseThrow().deadLetterCount()).isEqualTo(1);
    }

    @Test
    void shouldCountATopicJobsExampleOffsetsFromShardZerosLineage() {
        // given
        final JobsDigest digest = new JobsDigest();
        digest.job("a", spec("a", 1));

        // when
        digest.model(
                "a/0",
                ModelShard.newBuilder(shard("a", 0, 5, 5, Map.of()))
                        .setExamples(List.of(new OffsetRange(0, 0L, 100L), new OffsetRange(1, 10L, 60L)))
                        .build());

        // then
        assertThat(digest.status("a", NOW).orElseThrow().exampleOffsets()).isEqualTo(150);
    }

    private static JobSpec spec(final String job, final int shards) {
        return JobSpec.newBuilder()
                .setJob(job)
                .setModel("linear")
                .setDataset("linear:n=4096,d=16,noise=0.1,seed=7")
                .setInputs(16)
                .setOutputs(1)
                .setParameters(17)
                .setShards(shards)
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.01)
                .setGlobalBatch(128)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(3)
                .setCreatedAt(NOW)
                .build();
    }

    private static ModelShard shard(
            final String job,
            final int shard,
            final long version,
            final long minClock,
            final Map<String, Long> clocks) {
        return ModelShard.newBuilder()
                .setJob(job)
                .setShard(shard)
                .setShards(2)
                .setFirstParameter(0)
                .setVersion(version)
                .setMinClock(minClock)
                .setClocks(clocks)
                .setValues(FloatPacking.pack(new float[] {1f}))
                .setUpdatedAt(NOW)
                .build();
    }

    private static WorkerStatus member(
            final String job, final String worker, final WorkerState state, final long clock, final Instant at) {
        return new WorkerStatus(job, worker, state, clock, at, false);
    }

    private static ResourceCommand command(
            final String job,
            final String worker,
            final long epoch,
            final double share,
            final int threads,
            final String reason) {
        return new ResourceCommand(job, worker, epoch, threads, share, reason, Map.of(), NOW);
    }

    private static DeadLetter letter(final DeadLetterReason reason, final String error) {
        return DeadLetter.newBuilder()
                .setSourceTopic("gradients")
                .setPartition(0)
                .setOffset(1)
                .setReason(reason)
                .setError(error)
                .setTimestamp(NOW)
                .build();
    }
}
