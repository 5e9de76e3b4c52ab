package io.paramhub.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.worker.ComputeEmulation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioTest {

    @Test
    void shouldSlowOnlyTheLastWorkerWhenOneStragglesFromTheStart() {
        // when
        final Map<Integer, ComputeEmulation> emulations = Scenario.STRAGGLER_5X.emulations(4, 4000, 100, 1);

        // then
        assertThat(emulations).hasSize(4);
        assertThat(emulations.get(3).slowdownAt(0)).isEqualTo(5.0);
        for (int index = 0; index < 3; index++) {
            assertThat(emulations.get(index).slowdownAt(0)).isEqualTo(1.0);
            assertThat(emulations.get(index).sampleCostMicros()).isEqualTo(4000);
        }
    }

    @Test
    void shouldSlowTheLastWorkerOnlyFromClockFiftyWhenTheStragglerIsLate() {
        // when
        final ComputeEmulation last =
                Scenario.LATE_STRAGGLER.emulations(4, 4000, 100, 1).get(3);

        // then
        assertThat(last.slowdownAt(49)).isEqualTo(1.0);
        assertThat(last.slowdownAt(50)).isEqualTo(3.0);
    }

    @Test
    void shouldRedrawEveryWorkersSlowdownEveryTwentyClocksFromTheSeedWhenThereIsInterference() {
        // when
        final Map<Integer, ComputeEmulation> first = Scenario.INTERFERENCE.emulations(4, 4000, 100, 7);
        final Map<Integer, ComputeEmulation> again = Scenario.INTERFERENCE.emulations(4, 4000, 100, 7);
        final Map<Integer, ComputeEmulation> other = Scenario.INTERFERENCE.emulations(4, 4000, 100, 8);

        // then: steps at 0, 20, .., 80, factors in [1, 4], constant within a step, the same for the same seed
        for (int index = 0; index < 4; index++) {
            final ComputeEmulation emulation = first.get(index);
            assertThat(emulation.schedule().keySet()).containsExactly(0L, 20L, 40L, 60L, 80L);
            assertThat(emulation.schedule().values())
                    .allSatisfy(factor -> assertThat(factor).isBetween(1.0, 4.0));
            assertThat(emulation.slowdownAt(39)).isEqualTo(emulation.slowdownAt(20));
            assertThat(emulation.schedule()).isEqualTo(again.get(index).schedule());
        }
        assertThat(first.get(0).schedule()).isNotEqualTo(other.get(0).schedule());
        assertThat(first.get(0).schedule()).isNotEqualTo(first.get(1).schedule());
    }

    @Test
    void shouldRefuseAnUnknownScenario() {
        assertThatThrownBy(() -> Scenario.parse("stragglers"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("straggler-3x");
    }
}
