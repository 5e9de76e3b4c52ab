package io.paramhub.topology.orchestrator;

import static io.paramhub.topology.orchestrator.OrchestratorTestBed.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.ResourceCommand;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

class OrchestratorTopologyTest {

    private static final OrchestratorSettings DEFAULTS = OrchestratorSettings.defaults();

    @Test
    void shouldFlagStragglerAndCommandItWhenWorkerIsThreeTimesSlowerForOneWindow() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given
            bed.submit(4);

            // when
            for (int c = 0; c < DEFAULTS.window(); c++) {
                bed.round(1000, 1000, 1000 / 3.0, 1000);
            }

            // then
            assertThat(bed.state().workers().get(worker(2)).straggler()).isTrue();
            assertThat(bed.state().workers().get(worker(0)).straggler()).isFalse();
            assertThat(bed.issued)
                    .extracting(ResourceCommand::getWorker)
                    .containsExactlyInAnyOrder(worker(0), worker(1), worker(2), worker(3));
            assertThat(bed.metrics.issuedCount(OrchestratorTestBed.JOB)).isEqualTo(bed.issued.size());
            final ResourceCommand slow = bed.newest().get(worker(2));
            assertThat(slow.getEpoch()).isZero();
            assertThat(slow.getReason()).startsWith("worker-002 is a straggler: 333 samples/s vs median 1000");
            assertThat(slow.getBatchShare())
                    .isLessThan(bed.newest().get(worker(0)).getBatchShare());
            assertThat(slow.getSpeeds()).containsKeys(worker(0), worker(1), worker(2), worker(3));
        }
    }

    @Test
    void shouldFlagStragglerButIssueNoCommandWhenObserveOnly() {
        try (OrchestratorTestBed bed =
                new OrchestratorTestBed(DEFAULTS.withMinGain(0).observeOnly())) {
            // given
            bed.submit(4);

            // when
            for (int c = 0; c < 3 * DEFAULTS.window(); c++) {
                bed.round(1000, 1000, 1000 / 3.0, 1000);
            }

            // then
            assertThat(bed.state().workers().get(worker(2)).straggler()).isTrue();
            assertThat(bed.state().workers().get(worker(0)).straggler()).isFalse();
            assertThat(bed.state().planVersion()).isEqualTo(-1);
            assertThat(bed.issued).isEmpty();
        }
    }

    @Test
    void shouldJudgeAHybridJobsWorkersWithinTheirStageAndIssueNoPlan() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS.withMinGain(0))) {
            // given 2 replicas x 2 stages: stage 1 (workers 1, 3) computes far less than stage 0 (workers 0, 2)
            bed.submitHybrid(4, 2);

            // when worker 2 is three times slower than worker 0, its stage peer
            for (int c = 0; c < 3 * DEFAULTS.window(); c++) {
                bed.round(1000, 5000, 1000 / 3.0, 5000);
            }

            // then only worker 2 is a straggler (worker 0 is slow only next to another stage), and no plan comes:
            // a replica's stages must compute one share
            assertThat(bed.state().workers().get(worker(2)).straggler()).isTrue();
            assertThat(bed.state().workers().get(worker(0)).straggler()).isFalse();
            assertThat(bed.state().workers().get(worker(1)).straggler()).isFalse();
            assertThat(bed.state().planVersion()).isEqualTo(-1);
            assertThat(bed.issued).isEmpty();
        }
    }

    @Test
    void shouldWaitForEveryExpectedWorkerWhenPlanningFirst() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS.withWindow(1))) {
            // given
            bed.submit(4);

            // when
            bed.send(worker(0), 300, 300, 1, 0.25, -1);
            bed.send(worker(1), 300, 900, 1, 0.25, -1);
            final List<ResourceCommand> beforeAll = bed.commands.readValuesToList();
            bed.send(worker(2), 300, 300, 1, 0.25, -1);
            bed.send(worker(3), 300, 300, 1, 0.25, -1);
            final List<ResourceCommand> afterAll = bed.commands.readValuesToList();

            // then
            assertThat(beforeAll).isEmpty();
            assertThat(afterAll)
                    .hasSize(4)
                    .allSatisfy(c -> assertThat(c.getEpoch()).isZero());
        }
    }

    @Test
    void shouldNotPlanOnAFirstClockAlone() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given
            bed.submit(4);

            // when: worker-002's first clock is three times as slow (a cold start), the next ones are not
            bed.round(1000, 1000, 1000 / 3.0, 1000);
            final List<ResourceCommand> afterTheFirst = bed.commands.readValuesToList();
            for (int c = 1; c < 3 * DEFAULTS.window(); c++) {
                bed.round(1000, 1000, 1000, 1000);
            }

            // then: judged only once every worker had a full window, so never a straggler
            assertThat(afterTheFirst).isEmpty();
            assertThat(bed.issued).isEmpty();
            assertThat(bed.state().lastEvaluatedRound()).isEqualTo(3L * DEFAULTS.window() - 1);
        }
    }

    @Test
    void shouldPlanSharesProportionalToMeasuredSpeedsWhenLoadLeverIsOn() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given
            final double[] speeds = {1000, 800, 500, 250};
            bed.submit(4);

            // when
            for (int c = 0; c < 10; c++) {
                bed.round(speeds);
            }

            // then
            final double total = 1000 + 800 + 500 + 250;
            final Map<String, ResourceCommand> newest = bed.newest();
            for (int w = 0; w < speeds.length; w++) {
                final double expected = speeds[w] / total;
                assertThat(newest.get(worker(w)).getBatchShare()).isCloseTo(expected, within(0.05 * expected));
            }
            assertThat(newest.values().stream()
                            .mapToDouble(ResourceCommand::getBatchShare)
                            .sum())
                    .isCloseTo(1.0, within(1e-9));
        }
    }

    @Test
    void shouldIssueNoCommandWhenSpeedsStayWithinThreshold() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given
            bed.submit(4);
            final Random random = new Random(11);

            // when
            for (int c = 0; c < 40; c++) {
                bed.round(random, 0.03, 1000, 950, 900, 850);
            }

            // then
            assertThat(bed.issued).isEmpty();
            assertThat(bed.metrics.issuedCount(OrchestratorTestBed.JOB)).isZero();
            assertThat(bed.state().workers().values()).noneMatch(JobState.Worker::straggler);
        }
    }

    @Test
    void shouldNotFlapWhenSpeedsAreNoisyAroundThreshold() {
        for (long seed = 1; seed <= 30; seed++) {
            try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
                // given a worker right at the threshold (20% below the median), every speed ±10% per iteration
                bed.submit(4);
                final Random random = new Random(seed);

                // when
                for (int c = 0; c < 50; c++) {
                    bed.round(random, 0.10, 1000, 1000, 800, 1000);
                }

                // then
                assertThat(bed.plans()).as("plans with seed %d", seed).isBetween(1L, 2L);
            }
        }
    }

    @Test
    void shouldIncreasePlanVersionsStrictlyWhenPlansFollowChangingSpeeds() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS)) {
            // given
            bed.submit(4);

            // when
            for (int c = 0; c < 10; c++) {
                bed.round(1000, 1000, 300, 1000);
            }
            for (int c = 0; c < 10; c++) {
                bed.round(1000, 250, 300, 1000);
            }
            for (int c = 0; c < 10; c++) {
                bed.round(1000, 1000, 1000, 1000);
            }

            // then
            assertThat(bed.plans()).isGreaterThanOrEqualTo(3);
            long previous = -1;
            for (int i = 0; i < bed.issued.size(); i += 4) {
                final List<ResourceCommand> plan = bed.issued.subList(i, i + 4);
                assertThat(plan)
                        .extracting(ResourceCommand::getEpoch)
                        .containsOnly(plan.get(0).getEpoch());
                assertThat(plan.get(0).getEpoch()).isGreaterThan(previous);
                previous = plan.get(0).getEpoch();
            }
            assertThat(bed.newest().values())
                    .allSatisfy(c -> assertThat(c.getBatchShare()).isCloseTo(0.25, within(0.02)));
        }
    }

    @Test
    void shouldEqualiseWholeClocksWhenPartOfAClockDoesNotDependOnItsSamples() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS.withResourceLever(false))) {
            // given: 100 ms a clock before the first sample, about a third of a clock at an equal share
            bed.submit(4);
            bed.fixedMs = 100;

            // when: worker-002 turns three times as slow, in both parts
            for (int c = 0; c < 5; c++) {
                bed.round(1500, 1500, 1500, 1500);
            }
            for (int c = 0; c < 40; c++) {
                bed.round(1500, 1500, 500, 1500);
            }

            // then: its share is cut so that its whole clock takes as long as the others'
            final JobState slowState = bed.state();
            final double fast = clockMs(slowState, worker(0));
            assertThat(clockMs(slowState, worker(2))).isCloseTo(fast, within(0.03 * fast));
            assertThat(slowState.workers().get(worker(2)).fixedMs()).isCloseTo(300, within(1.0));
            assertThat(bed.newest().get(worker(2)).getBatchShare()).isLessThan(0.15);

            // and when it recovers, the shares go back to equal
            for (int c = 0; c < 40; c++) {
                bed.round(1500, 1500, 1500, 1500);
            }
            assertThat(bed.newest().values())
                    .allSatisfy(command -> assertThat(command.getBatchShare()).isCloseTo(0.25, within(0.02)));
            assertThat(bed.state().workers().values()).noneMatch(JobState.Worker::straggler);
        }
    }

    /** The compute time of a worker's newest iteration. */
    private static double clockMs(final JobState state, final String worker) {
        final List<JobState.Iteration> window = state.workers().get(worker).window();
        return window.get(window.size() - 1).computeMs();
    }

    @Test
    void shouldMoveThreadsToStragglerWhenBudgetIsFree() {
        try (OrchestratorTestBed bed = new OrchestratorTestBed(DEFAULTS.withThreadBudget(7))) {
            // given
            bed.submit(4);

            // when
            for (int c = 0; c < DEFAULTS.window(); c++) {
                bed.round(1000, 1000, 1000 / 3.0, 1000);
            }

            // then
            final ResourceCommand slow = bed.newest().get(worker(2));
            assertThat(slow.getThreads()).isEqualTo(3);
            assertThat(slow.getReason()).contains("worker-002 +2 threads");
            assertThat(bed.newest().get(worker(0)).getThreads()).isEqualTo(1);
            assertThat(slow.getBatchShare()).isCloseTo(0.25, within(0.01));
        }
    }

    @Test
    void shouldKeepSharesWhenOnlyResourceLeverIsOn() {
        try (OrchestratorTestBed bed =
                new OrchestratorTestBed(DEFAULTS.withLoadLever(false).withThreadBudget(8))) {
            // given
            bed.submit(4);

            // when
            for (int c = 0; c < DEFAULTS.window(); c++) {
                bed.round(1000, 1000, 500, 1000);
            }

            // then
            assertThat(bed.newest().values())
                    .extracting(ResourceCommand::getBatchShare)
                    .containsOnly(0.25);
            assertThat(bed.newest().get(worker(2)).getThreads()).isEqualTo(2);
        }
    }

    @Test
    void shouldNameEveryStoreAndProcessorWhenBuilt() {
        // given
        final SerdeFactory serdes = SerdeFactory.forRegistry("mock://orchestrator-naming");
        final TopicCatalog topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, serdes);

        // when
        final TopologyDescription description =
                OrchestratorTopology.build(topics, serdes, DEFAULTS).describe();

        // then
        assertThat(description.toString())
                .contains(
                        OrchestratorTopology.JOB_STATE_STORE,
                        OrchestratorTopology.JOB_SPEC_STORE,
                        OrchestratorTopology.REPARTITION_NAME + "-repartition",
                        "planner",
                        OrchestratorTopology.WORKER_GATE,
                        "telemetry-dead-letters-sink",
                        "telemetry-source",
                        "commands-sink",
                        "job-spec-loader");
        assertThat(description.toString()).doesNotContain("KSTREAM-", "KTABLE-");
        assertThat(description.globalStores()).hasSize(1);
    }
}
