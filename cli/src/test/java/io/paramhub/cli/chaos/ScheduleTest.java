package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleTest {

    private static final long BSP_SESSION_MS = 30_000;
    private static final long SHORT_SESSION_MS = 12_000;
    private static final List<ChaosJob> JOBS =
            ChaosJob.standard(3, ChaosJob.CLOCKS_PER_FAULT, BSP_SESSION_MS, SHORT_SESSION_MS, 2_000);
    private static final ChaosTopology TOPOLOGY = ChaosTopology.of(JOBS);

    @Test
    void shouldDrawTheSameFaultsWhenGivenTheSameSeed() {
        // given / when
        final Schedule first = Schedule.generate(7, 30, TOPOLOGY);
        final Schedule second = Schedule.generate(7, 30, TOPOLOGY);

        // then
        assertThat(first).isEqualTo(second);
        assertThat(first.faults()).hasSize(30);
        assertThat(Schedule.generate(8, 30, TOPOLOGY)).isNotEqualTo(first);
    }

    @Test
    void shouldDrawEveryKindAndOnlyExistingTargetsWhenGivenManyFaults() {
        // given / when
        final Schedule schedule = Schedule.generate(3, 200, TOPOLOGY);

        // then
        assertThat(schedule.faults()).extracting(Fault::kind).contains(FaultKind.values());
        assertThat(schedule.faults())
                .allSatisfy(fault -> assertThat(fault.target()).isBetween(0, TOPOLOGY.targets(fault.kind()) - 1))
                .allSatisfy(fault ->
                        assertThat(fault.afterClocks()).isBetween(Schedule.MIN_GAP_CLOCKS, Schedule.MAX_GAP_CLOCKS));
    }

    @Test
    void shouldNameEveryJobsWorkersAsKillTargetsWhenBuiltFromTheThreeJobs() {
        // when
        final List<String> names = TOPOLOGY.workers().stream()
                .map(ChaosTopology.WorkerTarget::name)
                .toList();

        // then: two workers each; only the BSP job's must come back within their session timeout
        assertThat(names)
                .containsExactly(
                        "chaos-bsp/worker-0",
                        "chaos-bsp/worker-1",
                        "chaos-ssp/worker-0",
                        "chaos-ssp/worker-1",
                        "chaos-staged/worker-0",
                        "chaos-staged/worker-1");
        assertThat(TOPOLOGY.workers())
                .filteredOn(ChaosTopology.WorkerTarget::mayOutliveSession)
                .extracting(ChaosTopology.WorkerTarget::sessionTimeoutMs)
                .containsOnly(SHORT_SESSION_MS)
                .hasSize(4);
    }

    @Test
    void shouldRestartABspWorkerWellWithinItsSessionTimeoutWhenDrawingWorkerKills() {
        // given / when
        final Schedule schedule = Schedule.generate(5, 400, TOPOLOGY);

        // then: a JVM start on two busy cores fits in the rest of the session timeout
        assertThat(schedule.faults())
                .filteredOn(fault -> fault.kind() == FaultKind.WORKER_KILL && fault.target() < 2)
                .isNotEmpty()
                .allSatisfy(fault -> assertThat(fault.holdMs()).isLessThan(BSP_SESSION_MS / 4))
                .noneMatch(Fault::afterSessionTimeout);
    }

    @Test
    void shouldRestartOtherJobsWorkersBeforeOrAfterTheirSessionTimeoutWhenDrawingWorkerKills() {
        // given / when
        final Schedule schedule = Schedule.generate(5, 400, TOPOLOGY);
        final List<Fault> others = schedule.faults().stream()
                .filter(fault -> fault.kind() == FaultKind.WORKER_KILL && fault.target() >= 2)
                .toList();

        // then: both ways drawn, each hold on its side of the timeout
        assertThat(others).anyMatch(Fault::afterSessionTimeout).anyMatch(fault -> !fault.afterSessionTimeout());
        assertThat(others)
                .filteredOn(Fault::afterSessionTimeout)
                .allSatisfy(fault -> assertThat(fault.holdMs())
                        .isBetween(
                                SHORT_SESSION_MS + Schedule.PAST_SESSION_MIN_MS,
                                SHORT_SESSION_MS + Schedule.PAST_SESSION_MAX_MS));
        assertThat(others)
                .filteredOn(fault -> !fault.afterSessionTimeout())
                .allSatisfy(fault -> assertThat(fault.holdMs()).isLessThan(SHORT_SESSION_MS / 4));
    }

    @Test
    void shouldReadBackTheSameScheduleWhenWrittenToAFile(@TempDir final Path dir) {
        // given
        final Schedule schedule = Schedule.generate(11, 12, TOPOLOGY);
        final Path file = dir.resolve("run").resolve("schedule.json");

        // when
        schedule.write(file);

        // then
        assertThat(Schedule.read(file)).isEqualTo(schedule);
    }

    @Test
    void shouldReadAScheduleWrittenBeforeRestartsPastTheSessionTimeoutAsRestartsWithinIt(@TempDir final Path dir)
            throws Exception {
        // given: a schedule.json of an earlier run, without afterSessionTimeout
        final Path file = dir.resolve("schedule.json");
        Files.writeString(
                file,
                "{\"seed\" : 36, \"faults\" : [ {\"kind\" : \"WORKER_KILL\", \"target\" : 1, \"afterClocks\" : 3, "
                        + "\"holdMs\" : 1200} ]}");

        // when
        final Schedule schedule = Schedule.read(file);

        // then
        assertThat(schedule.faults()).containsExactly(new Fault(FaultKind.WORKER_KILL, 1, 3, 1200, false));
    }
}
