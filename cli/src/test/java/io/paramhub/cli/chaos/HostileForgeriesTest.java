package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostileForgeriesTest {

    @Test
    void shouldAimTheMembershipForgeriesAtTheJobsLastWorkerAndTheOneBeyondWhenTheJobHasTwo() {
        // given
        final JobSpec bsp = ChaosJob.bsp(ChaosJob.budget(3, ChaosJob.CLOCKS_PER_FAULT), 30_000, 2_000)
                .spec();

        // when
        final List<Forgery> kinds = HostileForgeries.kinds(bsp);

        // then
        assertThat(kinds)
                .extracting(Forgery::marker)
                .contains("LEFT of worker-001 at clock 0", "'worker-002'", "invalid job chaos-hostile")
                .doesNotHaveDuplicates();
        assertThat(kinds)
                .filteredOn(Forgery::byWorkers)
                .extracting(Forgery::reason)
                .containsOnly(DeadLetterReason.INVALID_MODEL);
    }

    @Test
    void shouldNameItsOwnJobNotTheBspJobsInItsInvalidSpec() {
        // given
        final JobSpec bsp = ChaosJob.bsp(ChaosJob.budget(0, ChaosJob.CLOCKS_PER_FAULT), 30_000, 2_000)
                .spec();

        // when
        final Forgery spec = HostileForgeries.kinds(bsp).stream()
                .filter(kind -> kind.reason() == DeadLetterReason.INVALID_JOB)
                .findFirst()
                .orElseThrow();

        // then
        assertThat(spec.marker()).doesNotContain(bsp.getJob()).contains(HostileForgeries.TENANT_JOB);
    }

    @Test
    void shouldForgeOnceBeforeTheFirstFaultAndOnceHalfWay() {
        // given: 3 faults: 64 + 3 x 40 clocks, rounded up to 6 epochs of 32
        final long clocks = ChaosJob.bsp(ChaosJob.budget(3, ChaosJob.CLOCKS_PER_FAULT), 30_000, 2_000)
                .clocks();

        // when
        final List<Long> rounds = HostileTenant.roundClocks(clocks);

        // then
        assertThat(clocks).isEqualTo(192);
        assertThat(rounds).containsExactly(8L, 96L);
        assertThat(rounds.get(0)).isLessThan(ChaosJob.WARMUP_CLOCKS);
    }
}
