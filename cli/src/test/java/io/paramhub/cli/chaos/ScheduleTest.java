package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleTest {

    private static final long SESSION_TIMEOUT_MS = 30_000;

    @Test
    void shouldDrawTheSameFaultsWhenGivenTheSameSeed() {
        // given / when
        final Schedule first = Schedule.generate(7, 30, ChaosTopology.STANDARD, SESSION_TIMEOUT_MS);
        final Schedule second = Schedule.generate(7, 30, ChaosTopology.STANDARD, SESSION_TIMEOUT_MS);

        // then
        assertThat(first).isEqualTo(second);
        assertThat(first.faults()).hasSize(30);
        assertThat(Schedule.generate(8, 30, ChaosTopology.STANDARD, SESSION_TIMEOUT_MS))
                .isNotEqualTo(first);
    }

    @Test
    void shouldDrawEveryKindAndOnlyExistingTargetsWhenGivenManyFaults() {
        // given / when
        final Schedule schedule = Schedule.generate(3, 200, ChaosTopology.STANDARD, SESSION_TIMEOUT_MS);

        // then
        assertThat(schedule.faults()).extracting(Fault::kind).contains(FaultKind.values());
        assertThat(schedule.faults())
                .allSatisfy(fault ->
                        assertThat(fault.target()).isBetween(0, ChaosTopology.STANDARD.targets(fault.kind()) - 1))
                .allSatisfy(fault ->
                        assertThat(fault.afterClocks()).isBetween(Schedule.MIN_GAP_CLOCKS, Schedule.MAX_GAP_CLOCKS));
    }

    @Test
    void shouldRestartAKilledWorkerWellWithinItsSessionTimeoutWhenDrawingWorkerKills() {
        // given / when
        final Schedule schedule = Schedule.generate(5, 200, ChaosTopology.STANDARD, SESSION_TIMEOUT_MS);

        // then: a JVM start on two busy cores fits in the rest of the session timeout
        assertThat(schedule.faults())
                .filteredOn(fault -> fault.kind() == FaultKind.WORKER_KILL)
                .isNotEmpty()
                .allSatisfy(fault -> assertThat(fault.holdMs()).isLessThan(SESSION_TIMEOUT_MS / 4));
    }

    @Test
    void shouldReadBackTheSameScheduleWhenWrittenToAFile(@TempDir final Path dir) {
        // given
        final Schedule schedule = Schedule.generate(11, 12, ChaosTopology.STANDARD, SESSION_TIMEOUT_MS);
        final Path file = dir.resolve("run").resolve("schedule.json");

        // when
        schedule.write(file);

        // then
        assertThat(Schedule.read(file)).isEqualTo(schedule);
    }
}
