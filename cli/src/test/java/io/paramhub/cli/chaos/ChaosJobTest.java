package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.SyncMode;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosJobTest {

    private static List<ChaosJob> jobs(final int faults) {
        return ChaosJob.standard(faults, ChaosJob.CLOCKS_PER_FAULT, 30_000, 12_000, 2_000);
    }

    @Test
    void shouldMakeABspAnSspAndAStagedJobThatAreAllValidWhenGivenFaults() {
        // when
        final List<ChaosJob> jobs = jobs(3);

        // then
        assertThat(jobs).extracting(ChaosJob::name).containsExactly("chaos-bsp", "chaos-ssp", "chaos-staged");
        assertThat(jobs)
                .allSatisfy(job -> assertThat(JobSpecs.problems(job.spec())).isEmpty());
        assertThat(jobs)
                .extracting(job -> job.spec().getSyncMode())
                .containsExactly(SyncMode.BSP, SyncMode.SSP, SyncMode.BSP);
        assertThat(jobs.get(1).spec().getStaleness()).isEqualTo(ChaosJob.SSP_STALENESS);
        assertThat(jobs.get(1).slowdowns()).containsExactly(1.0, ChaosJob.SSP_SLOWDOWN);
        assertThat(jobs.get(2).spec().getStages()).isEqualTo(2);
        assertThat(jobs.get(2).workers()).isEqualTo(2);
        assertThat(jobs).extracting(job -> job.spec().getSessionTimeoutMs()).containsExactly(30_000L, 12_000L, 12_000L);
    }

    @Test
    void shouldSizeEveryJobToAtLeastTheBudgetWhenGivenMoreFaults() {
        // given: 64 + 20 x 40 clocks budgeted
        final int budget = ChaosJob.budget(20, ChaosJob.CLOCKS_PER_FAULT);

        // when
        final List<ChaosJob> jobs = jobs(20);

        // then: the BSP and SSP jobs in epochs of 32 clocks, the staged one in one epoch of batches of 68
        assertThat(budget).isEqualTo(864);
        assertThat(jobs.get(0).clocks()).isEqualTo(864);
        assertThat(jobs.get(1).clocks()).isEqualTo(864);
        assertThat(jobs.get(2).spec().getGlobalBatch()).isEqualTo(68);
        assertThat(jobs.get(2).clocks()).isEqualTo(882);
        assertThat(jobs)
                .allSatisfy(job -> assertThat(JobSpecs.problems(job.spec())).isEmpty());
        assertThat(jobs.get(2).sampleCostMicros()).isEqualTo(2_000 * 64 / 68);
    }

    @Test
    void shouldNameWorkerProcessesAfterTheirJobWhenAskedForOne() {
        // when / then
        assertThat(jobs(0).get(1).workerName(1)).isEqualTo("chaos-ssp/worker-1");
    }
}
