package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyncSemanticsTest {

    private static final String JOB = "job-s";
    private static final long T0 = 1_800_000_000_000L;

    private static JobSpec job(final SyncMode mode, final int staleness, final int workers) {
        return JobSpec.newBuilder(linearJob(JOB, workers))
                .setSyncMode(mode)
                .setStaleness(staleness)
                .setSessionTimeoutMs(1_000)
                .build();
    }

    private static GradientShard at(final String worker, final long clock, final long baseVersion) {
        return GradientShard.newBuilder(gradient(JOB, 0, worker, clock, 2, 2f, 4f))
                .setBaseVersion(baseVersion)
                .build();
    }

    @Test
    void shouldApplyEachGradientOnArrivalUnderSsp() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(SyncMode.SSP, 2, 2), T0);
            final float[] initial = FloatPacking.unpack(shard0(bed.models()).getValues());

            // when
            bed.send(at("worker-000", 0, 0), T0 + 1);
            final List<ModelShard> first = bed.models();
            bed.send(at("worker-000", 1, 1), T0 + 2);
            final List<ModelShard> second = bed.models();

            // then
            assertThat(shard0(first).getVersion()).isEqualTo(1);
            // one worker's share of the clock: (2, 4) / global batch 8; plain SGD, lr 0.5
            assertThat(FloatPacking.unpack(shard0(first).getValues()))
                    .containsExactly(initial[0] - 0.5f * 0.25f, initial[1] - 0.5f * 0.5f);
            assertThat(shard0(second).getVersion()).isEqualTo(2);
        }
    }

    @Test
    void shouldScaleEachGradientsStepByTheScheduleAtItsOwnClockUnderSsp() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: the rate annealed over 2 clocks, so clock 1's gradients move at half the rate
            bed.jobs.pipeInput(
                    JOB,
                    JobSpec.newBuilder(job(SyncMode.SSP, 2, 2))
                            .setLearningRateSchedule(LearningRateScheduleKind.COSINE)
                            .setDecayClocks(2)
                            .build(),
                    T0);
            final float[] initial = FloatPacking.unpack(shard0(bed.models()).getValues());

            // when: worker 0's clock 1 arrives before worker 1's clock 0
            bed.send(at("worker-000", 0, 0), T0 + 1);
            bed.send(at("worker-000", 1, 1), T0 + 2);
            bed.send(at("worker-001", 0, 2), T0 + 3);
            final List<ModelShard> published = bed.models();

            // then: steps of 0.5 x (1, 1/2, 1) x (2, 4) / 8
            assertThat(FloatPacking.unpack(published.get(published.size() - 1).getValues())[0])
                    .isEqualTo((float) ((float) ((float) (initial[0] - 0.5 * 0.25f) - 0.25 * 0.25f) - 0.5 * 0.25f));
        }
    }

    @Test
    void shouldPublishSmallestClockOfLiveWorkersAsMinClockUnderSsp() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(SyncMode.SSP, 3, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0);
            bed.models();

            // when
            bed.send(at("worker-000", 0, 0), T0 + 1);
            bed.send(at("worker-000", 1, 1), T0 + 2);
            final long whileOneLags = shard0(bed.models()).getMinClock();
            bed.send(at("worker-001", 0, 0), T0 + 3);
            final long afterItCatchesUp = shard0(bed.models()).getMinClock();

            // then
            assertThat(whileOneLags).isZero();
            assertThat(afterItCatchesUp).isEqualTo(1);
        }
    }

    @Test
    void shouldHoldMinClockForAnExpectedWorkerNotYetHeardFromUnderSsp() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: an SSP job of 2 workers; only worker-000 has joined, and it runs ahead
            bed.jobs.pipeInput(JOB, job(SyncMode.SSP, 3, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.send(at("worker-000", 0, 0), T0 + 1);
            bed.send(at("worker-000", 1, 1), T0 + 2);
            final long beforeTheOtherJoins = shard0(bed.models()).getMinClock();

            // when: worker-001 joins late and sends its clock 0
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0 + 3);
            bed.send(at("worker-001", 0, 2), T0 + 4);

            // then: worker-001 found minClock 0, so it trained clock 0; then minClock moved
            assertThat(beforeTheOtherJoins).isZero();
            assertThat(shard0(bed.models()).getMinClock()).isEqualTo(1);
        }
    }

    @Test
    void shouldLetMinClockMoveASessionTimeoutAfterTheFirstGradientWhenAnExpectedWorkerNeverCame() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: an SSP job of 2 workers, only worker-000 ever heard from
            bed.jobs.pipeInput(JOB, job(SyncMode.SSP, 3, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.send(at("worker-000", 0, 0), T0 + 1);
            bed.send(at("worker-000", 1, 1), T0 + 2);
            bed.models();

            // when: worker-000's heartbeat one session timeout (1 s) after the first gradient
            bed.member(JOB, "worker-000", WorkerState.HEARTBEAT, T0 + 1_001);

            // then
            assertThat(shard0(bed.models()).getMinClock()).isEqualTo(2);
        }
    }

    @Test
    void shouldDeadLetterGradientStalerThanTheBound() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: bound of 1 version
            bed.jobs.pipeInput(
                    JOB,
                    JobSpec.newBuilder(job(SyncMode.ASP, 0, 2))
                            .setMaxStaleness(1)
                            .build(),
                    T0);
            bed.send(at("worker-000", 0, 0), T0 + 1);
            bed.send(at("worker-000", 1, 1), T0 + 2);

            // when: computed on version 0, shard now at version 2
            bed.send(at("worker-001", 0, 0), T0 + 3);
            bed.send(at("worker-001", 1, 1), T0 + 4);

            // then
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters).extracting(DeadLetter::getReason).containsExactly(DeadLetterReason.STALE);
            assertThat(letters.get(0).getError()).contains("staleness 2 exceeds the bound 1");
            assertThat(bed.metrics.deadLetterCount(DeadLetterReason.STALE)).isEqualTo(1);
            assertThat(bed.metrics.maxStaleness()).isEqualTo(1.0);
        }
    }

    @Test
    void shouldCompleteBspClockWithoutWorkerSilentPastSessionTimeout() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: three workers joined; worker-002 falls silent
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 3), T0);
            for (final String worker : List.of("worker-000", "worker-001", "worker-002")) {
                bed.member(JOB, worker, WorkerState.JOINED, T0);
            }
            bed.send(at("worker-000", 0, 0), T0 + 10);
            bed.send(at("worker-001", 0, 0), T0 + 20);
            bed.models();

            // when: the others keep beating past worker-002's session timeout
            bed.member(JOB, "worker-000", WorkerState.HEARTBEAT, T0 + 600);
            bed.member(JOB, "worker-001", WorkerState.HEARTBEAT, T0 + 600);
            final List<ModelShard> beforeTimeout = bed.models();
            bed.member(JOB, "worker-000", WorkerState.HEARTBEAT, T0 + 1_200);
            bed.member(JOB, "worker-001", WorkerState.HEARTBEAT, T0 + 1_200);
            bed.member(JOB, "worker-000", WorkerState.HEARTBEAT, T0 + 2_100);
            final List<ModelShard> afterTimeout = bed.models();

            // then
            assertThat(beforeTimeout).isEmpty();
            assertThat(afterTimeout)
                    .filteredOn(model -> model.getShard() == 0)
                    .extracting(ModelShard::getVersion)
                    .containsExactly(1L);
        }
    }

    @Test
    void shouldKeepWaitingForEveryWorkerWhenGradientsRunAheadOfHeartbeatsAfterAnOutage() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: three workers beat until the aggregator went down, and clock 0 was applied
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 3), T0);
            final List<String> workers = List.of("worker-000", "worker-001", "worker-002");
            workers.forEach(worker -> bed.member(JOB, worker, WorkerState.JOINED, T0));
            workers.forEach(worker -> bed.send(at(worker, 0, 0), T0 + 10));
            bed.models();

            // when: back after 10 session timeouts, the first record read is one worker's next gradient,
            // ahead of the heartbeats the others kept sending meanwhile
            bed.send(at("worker-000", 1, 1), T0 + 10_000);
            final List<ModelShard> beforeHeartbeats = bed.models();
            for (long t = T0 + 250; t <= T0 + 10_000; t += 250) {
                final long beat = t;
                workers.forEach(worker -> bed.member(JOB, worker, WorkerState.HEARTBEAT, beat));
            }
            bed.send(at("worker-001", 1, 1), T0 + 10_001);
            bed.send(at("worker-002", 1, 1), T0 + 10_002);

            // then: clock 1 waits for, and sums, all three gradients; nobody is dead-lettered
            assertThat(beforeHeartbeats)
                    .filteredOn(model -> model.getVersion() > 1)
                    .isEmpty();
            assertThat(shard0(bed.models()).getVersion()).isEqualTo(2);
            assertThat(bed.deadLetters.readValuesToList()).isEmpty();
        }
    }

    @Test
    void shouldCompleteBspClockAsSoonAsTheMissingWorkerLeaves() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0);
            bed.send(at("worker-000", 0, 0), T0 + 5);
            final List<ModelShard> waiting = bed.models();

            // when
            bed.member(JOB, "worker-001", WorkerState.LEFT, T0 + 6);

            // then
            assertThat(waiting)
                    .filteredOn(model -> model.getShard() == 0 && model.getVersion() > 0)
                    .isEmpty();
            assertThat(shard0(bed.models()).getVersion()).isEqualTo(1);
        }
    }

    @Test
    void shouldWaitForTheGradientAWorkerSentBeforeItsLeftWhenTheLeftIsReadFirst() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: worker-001 sent its gradient of clock 0, then left at clock 1; the LEFT is read first
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0);
            bed.send(at("worker-000", 0, 0), T0 + 5);
            bed.left(JOB, "worker-001", 1, false, T0 + 7);
            final List<ModelShard> beforeItsGradient = bed.models();

            // when
            bed.send(at("worker-001", 0, 0), T0 + 8);

            // then: clock 0 sums both gradients, none is refused
            assertThat(beforeItsGradient)
                    .filteredOn(model -> model.getShard() == 0 && model.getVersion() > 0)
                    .isEmpty();
            final ModelShard applied = shard0(bed.models());
            assertThat(applied.getVersion()).isEqualTo(1);
            assertThat(applied.getClocks()).containsEntry("worker-000", 1L).containsEntry("worker-001", 1L);
            assertThat(bed.deadLetters.readValuesToList()).isEmpty();
        }
    }

    @Test
    void shouldCloseTheClockWithoutAGradientThatNeverCameASessionTimeoutAfterTheLeft() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: worker-001 left at clock 1, its gradient of clock 0 never comes
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0);
            bed.send(at("worker-000", 0, 0), T0 + 5);
            bed.left(JOB, "worker-001", 1, false, T0 + 7);
            bed.member(JOB, "worker-000", WorkerState.HEARTBEAT, T0 + 900);
            final List<ModelShard> withinTheTimeout = bed.models();

            // when: worker-000's heartbeat a session timeout (1 s) after the LEFT
            bed.member(JOB, "worker-000", WorkerState.HEARTBEAT, T0 + 1_008);

            // then
            assertThat(withinTheTimeout)
                    .filteredOn(model -> model.getShard() == 0 && model.getVersion() > 0)
                    .isEmpty();
            assertThat(shard0(bed.models()).getVersion()).isEqualTo(1);
        }
    }

    @Test
    void shouldWaitForEveryExpectedWorkerDuringTheFirstSessionTimeout() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: only one of two expected workers has joined so far
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 2), T0);
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.models();

            // when
            bed.send(at("worker-000", 0, 0), T0 + 5);
            final List<ModelShard> alone = bed.models();
            bed.send(at("worker-001", 0, 0), T0 + 6);

            // then
            assertThat(alone).isEmpty();
            assertThat(shard0(bed.models()).getVersion()).isEqualTo(1);
        }
    }

    private static ModelShard shard0(final List<ModelShard> models) {
        return models.stream()
                .filter(model -> model.getShard() == 0)
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    @Test
    void shouldPublishAPlanWithShardZeroOnlyOnceEveryWorkerHasItsCommandAndFromTheNextVersion() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP, 0, 2), T0);
            bed.models();

            // when: the plan's two commands arrive, then clock 0 completes
            bed.commands.pipeInput(JOB + "/worker-000", command("worker-000", 0.7, 1), T0 + 1);
            bed.send(at("worker-000", 0, 0), T0 + 2);
            bed.commands.pipeInput(JOB + "/worker-001", command("worker-001", 0.3, 3), T0 + 3);
            bed.send(at("worker-001", 0, 0), T0 + 4);

            // then
            final List<ModelShard> models = bed.models();
            final ModelShard first = shard0(models);
            assertThat(first.getVersion()).isEqualTo(1);
            assertThat(first.getPlanEpoch()).isEqualTo(4);
            assertThat(first.getShares()).containsEntry("worker-000", 0.7).containsEntry("worker-001", 0.3);
            assertThat(first.getThreads()).containsEntry("worker-000", 1).containsEntry("worker-001", 3);
            assertThat(models)
                    .filteredOn(model -> model.getShard() == 1)
                    .allSatisfy(model -> assertThat(model.getShares()).isEmpty());
            assertThat(models)
                    .filteredOn(model -> model.getShard() == 0 && model.getVersion() == 0)
                    .allSatisfy(model -> assertThat(model.getThreads()).isEmpty());
        }
    }

    private static ResourceCommand command(final String worker, final double share, final int threads) {
        return ResourceCommand.newBuilder()
                .setJob(JOB)
                .setWorker(worker)
                .setEpoch(4)
                .setThreads(threads)
                .setBatchShare(share)
                .setReason("test plan")
                .setSpeeds(Map.of("worker-000", 700.0, "worker-001", 300.0))
                .setIssuedAt(Instant.ofEpochMilli(T0))
                .build();
    }
}
