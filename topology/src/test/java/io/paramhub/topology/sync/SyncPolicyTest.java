package io.paramhub.topology.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SyncPolicyTest {

    private static final long TIMEOUT_MS = 1_000;
    private static final long T0 = 1_800_000_000_000L;

    private static SyncPolicy policy(final SyncMode mode, final int staleness, final int workers) {
        return SyncPolicy.of(spec(mode, staleness, workers).build());
    }

    private static JobSpec.Builder spec(final SyncMode mode, final int staleness, final int workers) {
        return JobSpec.newBuilder()
                .setJob("job-p")
                .setModel("linear")
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setOutputs(1)
                .setParameters(4)
                .setShards(2)
                .setSyncMode(mode)
                .setStaleness(staleness)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.5)
                .setGlobalBatch(8)
                .setExpectedWorkers(workers)
                .setEpochs(1)
                .setSeed(7)
                .setSessionTimeoutMs(TIMEOUT_MS)
                .setCreatedAt(Instant.ofEpochMilli(T0));
    }

    @Test
    void shouldBindBspToTheCurrentClockAndVersion() {
        // given
        final SyncPolicy bsp = policy(SyncMode.BSP, 0, 4);

        // then: a worker starts clock c only on minClock c, and a gradient must be on the shard's version
        assertThat(bsp.clockBound()).isZero();
        assertThat(bsp.versionBound()).isZero();
        assertThat(bsp.mayStart(5, 0, 5, 0)).isTrue();
        assertThat(bsp.mayStart(5, 0, 4, 0)).isFalse();
        assertThat(bsp.tooStale(7, 7)).isFalse();
        assertThat(bsp.tooStale(7, 6)).isTrue();
        assertThat(bsp.waitsForBarrier()).isTrue();
        assertThat(bsp.followsPlannedShares()).isTrue();
    }

    @Test
    void shouldPinEachPipelinedClockToTheVersionDClocksBehindAndBoundStalenessByD() {
        // given
        final SyncPolicy pipelined =
                SyncPolicy.of(spec(SyncMode.BSP, 0, 2).setPipelineDepth(1).build());
        final SyncPolicy plain = policy(SyncMode.BSP, 0, 2);

        // then: clock c starts on minClock c - 1 and computes on exactly version c - 1 (0 for clocks 0 and 1)
        assertThat(pipelined.pipelineDepth()).isEqualTo(1);
        assertThat(pipelined.mayStart(5, 0, 4, 0)).isTrue();
        assertThat(pipelined.mayStart(5, 0, 3, 0)).isFalse();
        assertThat(pipelined.pinnedVersion(0)).isZero();
        assertThat(pipelined.pinnedVersion(1)).isZero();
        assertThat(pipelined.pinnedVersion(5)).isEqualTo(4);
        assertThat(pipelined.tooStale(5, 4)).isFalse();
        assertThat(pipelined.tooStale(5, 3)).isTrue();
        assertThat(pipelined.waitsForBarrier()).isTrue();
        // and plain BSP computes on the newest, which is then version c
        assertThat(plain.pinnedVersion(5)).isEqualTo(-1);
        assertThat(plain.mayStart(5, 0, 4, 0)).isFalse();
    }

    @Test
    void shouldNotMakeABspWorkerWaitForItsOwnClocksBeyondTheBarrier() {
        // given
        final SyncPolicy bsp = policy(SyncMode.BSP, 0, 2);

        // then: the barrier already includes its own clock
        assertThat(bsp.ownClocksToStart(5, 0)).isZero();
        assertThat(bsp.mayStart(5, 0, 5, 0)).isTrue();
    }

    @Test
    void shouldLetAnSspWorkerRunAtMostSClocksAheadOfTheSlowest() {
        // given: SSP(3)
        final SyncPolicy ssp = policy(SyncMode.SSP, 3, 4);

        // then: clocks within the window start, the first beyond it waits
        assertThat(ssp.clockBound()).isEqualTo(3);
        assertThat(ssp.minClockToStart(10)).isEqualTo(7);
        assertThat(ssp.mayStart(10, 0, 7, 10)).isTrue();
        assertThat(ssp.mayStart(11, 0, 7, 11)).isFalse();
        assertThat(ssp.mayStart(2, 0, 0, 2)).as("within s of clock 0").isTrue();
        assertThat(ssp.waitsForBarrier()).isFalse();
        assertThat(ssp.followsPlannedShares()).isFalse();
    }

    @Test
    void shouldMakeSspAndAspWorkersReadTheirOwnWrites() {
        for (final SyncMode mode : new SyncMode[] {SyncMode.SSP, SyncMode.ASP}) {
            // given
            final SyncPolicy policy = policy(mode, 3, 2);

            // then: clock 6 waits until the model includes the worker's clocks 0..5
            assertThat(policy.ownClocksToStart(6, 0)).as("%s", mode).isEqualTo(6);
            assertThat(policy.mayStart(6, 0, 6, 5)).as("%s", mode).isFalse();
            assertThat(policy.mayStart(6, 0, 6, 6)).as("%s", mode).isTrue();
        }
    }

    @Test
    void shouldNotMakeALateJoinerWaitForOwnClocksItNeverRan() {
        // given: a worker that joined at clock 40 of an SSP job, whose model includes none of its clocks
        final SyncPolicy ssp = policy(SyncMode.SSP, 2, 3);

        // then: it starts clock 40 at once, and clock 41 once its clock 40 is in
        assertThat(ssp.ownClocksToStart(40, 40)).isZero();
        assertThat(ssp.mayStart(40, 40, 40, 0)).isTrue();
        assertThat(ssp.ownClocksToStart(41, 40)).isEqualTo(41);
        assertThat(ssp.mayStart(41, 40, 40, 0)).isFalse();
    }

    @Test
    void shouldNeverMakeAnAspWorkerWaitForOthers() {
        // given
        final SyncPolicy asp = policy(SyncMode.ASP, 0, 4);

        // then: any minClock will do, however far ahead the worker is
        assertThat(asp.clockBound()).isEqualTo(SyncPolicy.UNBOUNDED);
        assertThat(asp.versionBound()).isEqualTo(SyncPolicy.UNBOUNDED);
        assertThat(asp.minClockToStart(0)).isEqualTo(Long.MIN_VALUE);
        assertThat(asp.mayStart(Long.MAX_VALUE / 2, 0, 0, Long.MAX_VALUE / 2)).isTrue();
        assertThat(asp.tooStale(Long.MAX_VALUE - 1, 0)).isFalse();
        assertThat(asp.waitsForBarrier()).isFalse();
    }

    @Test
    void shouldBoundSspAtTheServerByTwoSPlusTwoRoundsOfEveryWorker() {
        // given: SSP(3) with 4 workers: (2 x 3 + 2) x 4 = 32 versions
        final SyncPolicy ssp = policy(SyncMode.SSP, 3, 4);

        // then
        assertThat(ssp.versionBound()).isEqualTo(32);
        assertThat(ssp.tooStale(132, 100)).isFalse();
        assertThat(ssp.tooStale(133, 100)).isTrue();
        assertThat(ssp.tooStale(100, 101))
                .as("a base version ahead of the shard")
                .isFalse();
    }

    @Test
    void shouldTakeTheJobsMaxStalenessOverTheModesDefault() {
        // when
        final SyncPolicy bsp =
                SyncPolicy.of(spec(SyncMode.BSP, 0, 4).setMaxStaleness(2).build());
        final SyncPolicy ssp =
                SyncPolicy.of(spec(SyncMode.SSP, 3, 4).setMaxStaleness(0).build());
        final SyncPolicy asp =
                SyncPolicy.of(spec(SyncMode.ASP, 0, 4).setMaxStaleness(5).build());

        // then: only the server's bound changes; the workers' is the mode's
        assertThat(bsp.versionBound()).isEqualTo(2);
        assertThat(bsp.clockBound()).isZero();
        assertThat(ssp.versionBound()).isZero();
        assertThat(ssp.clockBound()).isEqualTo(3);
        assertThat(asp.versionBound()).isEqualTo(5);
        assertThat(asp.tooStale(6, 0)).isTrue();
        assertThat(asp.clockBound()).isEqualTo(SyncPolicy.UNBOUNDED);
    }

    @Test
    void shouldPassTheBarrierOnceEveryLiveWorkersGradientIsIn() {
        // given: past the start grace
        final SyncPolicy bsp = policy(SyncMode.BSP, 0, 3);
        final long now = T0 + TIMEOUT_MS;

        // then
        assertThat(bsp.barrierPassed(Set.of("w0", "w1"), now, T0, () -> 3, () -> Set.of("w0", "w1", "w2")))
                .isFalse();
        assertThat(bsp.barrierPassed(Set.of("w0", "w1", "w2"), now, T0, () -> 3, () -> Set.of("w0", "w1", "w2")))
                .isTrue();
        assertThat(bsp.barrierPassed(Set.of("w0", "w1"), now, T0, () -> 3, () -> Set.of("w0", "w1")))
                .as("w2 left the live set")
                .isTrue();
        assertThat(bsp.barrierPassed(Set.of(), now, T0, () -> 3, Set::of))
                .as("no gradient")
                .isFalse();
    }

    @Test
    void shouldWaitForEveryExpectedWorkerInTheStartGrace() {
        // given: 3 expected workers, 2 heard from, both gradients in
        final SyncPolicy bsp = policy(SyncMode.BSP, 0, 3);
        final Set<String> two = Set.of("w0", "w1");

        // then: within one session timeout of the first gradient it waits, after it it goes on
        assertThat(bsp.barrierPassed(two, T0 + TIMEOUT_MS - 1, T0, () -> 2, () -> two))
                .isFalse();
        assertThat(bsp.barrierPassed(two, T0 + TIMEOUT_MS, T0, () -> 2, () -> two))
                .isTrue();
        assertThat(bsp.barrierPassed(Set.of("w0", "w1", "w2"), T0 + 1, T0, () -> 3, () -> Set.of("w0", "w1", "w2")))
                .as("all expected in")
                .isTrue();
    }

    @Test
    void shouldHoldTheStartGraceForEveryModeUntilEveryExpectedWorkerOrTheTimeout() {
        // given: 2 expected workers, 1 heard from, the first gradient at T0
        final SyncPolicy ssp = policy(SyncMode.SSP, 3, 2);

        // then
        assertThat(ssp.inStartGrace(T0 + TIMEOUT_MS - 1, T0, () -> 1)).isTrue();
        assertThat(ssp.inStartGrace(T0 + TIMEOUT_MS, T0, () -> 1))
                .as("after one timeout")
                .isFalse();
        assertThat(ssp.inStartGrace(T0 + 1, T0, () -> 2))
                .as("every worker heard from")
                .isFalse();
        assertThat(ssp.inStartGrace(T0 + 1, 0, () -> 1))
                .as("before any gradient")
                .isFalse();
    }

    @Test
    void shouldAskForTheHeardFromWorkersOnlyInTheStartGrace() {
        // given
        final SyncPolicy bsp = policy(SyncMode.BSP, 0, 2);
        final AtomicInteger asked = new AtomicInteger();

        // when
        bsp.barrierPassed(Set.of("w0"), T0 + TIMEOUT_MS, T0, asked::incrementAndGet, () -> Set.of("w0"));

        // then
        assertThat(asked).hasValue(0);
    }

    @Test
    void shouldOweAVersionWhenTheSlowestLiveClockMovesOnlyWithoutABarrier() {
        // then
        assertThat(policy(SyncMode.SSP, 2, 2).versionDue(5, 4)).isTrue();
        assertThat(policy(SyncMode.SSP, 2, 2).versionDue(4, 4)).isFalse();
        assertThat(policy(SyncMode.ASP, 0, 2).versionDue(5, 4)).isTrue();
        assertThat(policy(SyncMode.BSP, 0, 2).versionDue(5, 4)).isFalse();
    }
}
