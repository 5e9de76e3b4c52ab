package io.paramhub.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.worker.ComputeEmulation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdealTimeTest {

    @Test
    void shouldDivideTheWorkBySummedSpeedsWhenOneWorkerIsThreeTimesSlower() {
        // given: 4 ms a sample; three workers at 250 samples/s, one at 83.3
        final Map<Integer, ComputeEmulation> emulations = Scenario.STRAGGLER_3X.emulations(4, 4000, 10, 1);

        // when
        final double ideal = IdealTime.seconds(emulations, 10, 128, 1);

        // then: 10 x 128 samples at 750 + 83.3 samples/s
        assertThat(ideal).isCloseTo(10 * 128 / (3 * 250.0 + 250.0 / 3), within(1e-9));
    }

    @Test
    void shouldFollowTheSlowdownClockByClockWhenTheStragglerIsLate() {
        // given: 2 workers, 1 ms a sample, the last 3x slower from clock 50
        final Map<Integer, ComputeEmulation> emulations = Scenario.LATE_STRAGGLER.emulations(2, 1000, 60, 1);

        // when
        final double ideal = IdealTime.seconds(emulations, 60, 100, 1);

        // then: 50 clocks at 2000 samples/s, 10 at 1000 + 333.3
        assertThat(ideal).isCloseTo(50 * 100 / 2000.0 + 10 * 100 / (1000 + 1000 / 3.0), within(1e-9));
    }

    @Test
    void shouldBeZeroWhenNoCostIsEmulated() {
        // when / then
        assertThat(IdealTime.seconds(Map.of(0, ComputeEmulation.NONE), 10, 128, 1))
                .isZero();
    }
}
