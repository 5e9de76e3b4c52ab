package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PlannerTest {

    private static final OrchestratorSettings LOAD_ONLY =
            OrchestratorSettings.defaults().withResourceLever(false);

    private static SortedMap<String, Double> map(final double... values) {
        final SortedMap<String, Double> map = new TreeMap<>();
        for (int i = 0; i < values.length; i++) {
            map.put("worker-00" + i, values[i]);
        }
        return map;
    }

    private static SortedMap<String, Integer> oneThreadEach(final int workers) {
        final SortedMap<String, Integer> threads = new TreeMap<>();
        for (int i = 0; i < workers; i++) {
            threads.put("worker-00" + i, 1);
        }
        return threads;
    }

    /**
     * What the orchestrator measures of a worker whose clock costs {@code fixedMs + msPerSample × samples}, at
     * {@code samples} samples a clock: its speed as samples over the whole compute time (no fixed part told apart).
     */
    private static double wholeSpeed(final double fixedMs, final double msPerSample, final double samples) {
        return samples / ((fixedMs + msPerSample * samples) / 1000.0);
    }

    @Test
    void shouldGiveSharesProportionalToSpeedWithoutFixedParts() {
        // when
        final LoadPlan plan = Planner.plan(map(600, 200), oneThreadEach(2), map(0.5, 0.5), LOAD_ONLY);

        // then
        assertThat(plan.shares().get("worker-000")).isCloseTo(0.75, within(1e-12));
        assertThat(plan.shares().get("worker-001")).isCloseTo(0.25, within(1e-12));
        assertThat(plan.stragglers()).containsExactly("worker-001");
        assertThat(plan.gain()).isCloseTo(1 - (0.75 / 600) / (0.5 / 200), within(1e-12));
    }

    @Test
    void shouldHoldAtTheFloorOnlyWhoFallsBelowItWhateverTheOrderOfTheirNames() {
        // given: speeds 0.4, 0.2, 2.5 and 1.4 with a floor of 0.2; the first two fall below it
        final SortedMap<String, Double> fixed = map(0, 0, 0, 0);

        // when
        final SortedMap<String, Double> shares = Planner.equalTime(map(0.4, 0.2, 2.5, 1.4), fixed, 128, 0.2);
        final SortedMap<String, Double> reversed = Planner.equalTime(map(1.4, 2.5, 0.2, 0.4), fixed, 128, 0.2);

        // then: the other two divide the 0.6 left by their speeds, worker-003 included
        assertThat(shares.get("worker-000")).isEqualTo(0.2);
        assertThat(shares.get("worker-001")).isEqualTo(0.2);
        assertThat(shares.get("worker-002")).isCloseTo(0.6 * 2.5 / 3.9, within(1e-12));
        assertThat(shares.get("worker-003")).isCloseTo(0.6 * 1.4 / 3.9, within(1e-12));
        assertThat(reversed.get("worker-000")).isCloseTo(shares.get("worker-003"), within(1e-12));
        assertThat(reversed.get("worker-001")).isCloseTo(shares.get("worker-002"), within(1e-12));
    }

    @Test
    void shouldGiveIdenticalWorkersEqualSharesOnceTheirFixedPartIsKnown() {
        // given: four identical workers, 25 ms a clock plus 1.4 ms a sample, at shares of 18, 30, 34 and 46 of 128
        final double[] samples = {18, 30, 34, 46};
        final SortedMap<String, Double> shares = map(18 / 128.0, 30 / 128.0, 34 / 128.0, 46 / 128.0);
        final SortedMap<String, Double> whole = new TreeMap<>();
        for (int i = 0; i < samples.length; i++) {
            whole.put("worker-00" + i, wholeSpeed(25, 1.4, samples[i]));
        }

        // when
        final LoadPlan blind = Planner.plan(whole, oneThreadEach(4), shares, LOAD_ONLY);
        final LoadPlan told = Planner.plan(
                map(1000 / 1.4, 1000 / 1.4, 1000 / 1.4, 1000 / 1.4),
                Map.of("worker-000", 0.025, "worker-001", 0.025, "worker-002", 0.025, "worker-003", 0.025),
                oneThreadEach(4),
                shares,
                128,
                LOAD_ONLY);

        // then: blind to the fixed part, the planner takes the worker given least for a straggler and moves only
        // part of the way back; told it, it judges them alike and gives equal shares at once
        assertThat(blind.stragglers()).containsExactly("worker-000");
        assertThat(blind.shares().get("worker-000")).isBetween(18 / 128.0, 0.22);
        told.shares().values().forEach(share -> assertThat(share).isCloseTo(0.25, within(1e-12)));
        assertThat(told.stragglers()).isEmpty();
        assertThat(told.speeds().get("worker-000")).isCloseTo(32 / 0.0698, within(1e-9));
        assertThat(told.gain())
                .as("from 25 + 1.4 x 46 ms to 25 + 1.4 x 32 ms")
                .isCloseTo(1 - 69.8 / 89.4, within(1e-9));
    }

    @Test
    void shouldEqualiseTheWholeClockTimeOfASlowWorker() {
        // given: worker-001 three times as slow in both parts, 25 + 1.4 ms a sample against 75 + 4.2
        final Map<String, Double> fixed = Map.of("worker-000", 0.025, "worker-001", 0.075);

        // when
        final LoadPlan plan =
                Planner.plan(map(1000 / 1.4, 1000 / 4.2), fixed, oneThreadEach(2), map(0.5, 0.5), 128, LOAD_ONLY);

        // then: both take the same time for their share, and the slow one is the straggler
        final double fast = 25 + 1.4 * 128 * plan.shares().get("worker-000");
        final double slow = 75 + 4.2 * 128 * plan.shares().get("worker-001");
        assertThat(fast).isCloseTo(slow, within(1e-9));
        assertThat(plan.shares().get("worker-000") + plan.shares().get("worker-001"))
                .isCloseTo(1, within(1e-12));
        assertThat(plan.shares().get("worker-001")).isLessThan(0.25);
        assertThat(plan.stragglers()).containsExactly("worker-001");
        assertThat(plan.plannedTime() * 1000).isCloseTo(fast, within(1e-9));
    }

    @Test
    void shouldHoldAWorkerWhoseFixedPartAloneOutlastsTheOthersAtTheFloor() {
        // given: worker-002 needs 500 ms before its first sample, the others 10 ms for everything
        final Map<String, Double> fixed = Map.of("worker-000", 0.0, "worker-001", 0.0, "worker-002", 0.5);

        // when
        final LoadPlan plan = Planner.plan(
                map(10_000, 10_000, 10_000), fixed, oneThreadEach(3), map(1 / 3.0, 1 / 3.0, 1 / 3.0), 128, LOAD_ONLY);

        // then
        assertThat(plan.shares().get("worker-002")).isEqualTo(LOAD_ONLY.minShare());
        assertThat(plan.shares().get("worker-000")).isCloseTo((1 - LOAD_ONLY.minShare()) / 2, within(1e-12));
        assertThat(plan.stragglers()).containsExactly("worker-002");
    }
}
