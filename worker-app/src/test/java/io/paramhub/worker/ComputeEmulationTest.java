package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ComputeEmulationTest {

    @Test
    void shouldLeaveTheRealCostAloneWhenNothingIsEmulated() {
        // when
        final double target = ComputeEmulation.NONE.targetMs(1.5, 32, 10, 1);

        // then
        assertThat(target).isEqualTo(1.5);
    }

    @Test
    void shouldPadToTheSampleCostAndSlowDownOnlyFromItsClock() {
        // given: 500 us a sample, 3x slower from clock 50
        final ComputeEmulation emulation = new ComputeEmulation(3.0, 50, 500);

        // when
        final double before = emulation.targetMs(1.0, 32, 49, 1);
        final double after = emulation.targetMs(1.0, 32, 50, 1);
        final double realAboveCost = emulation.targetMs(20.0, 32, 0, 1);

        // then
        assertThat(before).isEqualTo(16.0);
        assertThat(after).isEqualTo(48.0);
        assertThat(realAboveCost).isEqualTo(20.0);
    }

    @Test
    void shouldChargeAPipelineStageItsShareOfTheSampleCost() {
        // given: 1000 us a sample, 2x slower from clock 10
        final ComputeEmulation emulation = new ComputeEmulation(2.0, 10, 1000);

        // when: 32 samples on a stage doing 95% of the model's compute, forward (a third) and backward
        final double forward = emulation.targetMs(0.5, 32, 0, 1, 0.95 / 3);
        final double backward = emulation.targetMs(0.5, 32, 10, 1, 0.95 * 2 / 3);

        // then
        assertThat(forward).isCloseTo(32 * 0.95 / 3, within(1e-9));
        assertThat(backward).isCloseTo(2 * 32 * 0.95 * 2 / 3, within(1e-9));
        assertThat(emulation.targetMs(0.5, 32, 0, 1, 1.0)).isEqualTo(emulation.targetMs(0.5, 32, 0, 1));
        assertThatThrownBy(() -> emulation.targetMs(0.5, 32, 0, 1, 1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cost fraction must be in [0, 1]");
    }

    @Test
    void shouldDivideTheEmulatedCostAmongTheGrantedThreads() {
        // given: 500 us a sample, 3x slower
        final ComputeEmulation emulation = new ComputeEmulation(3.0, 0, 500);

        // when
        final double oneThread = emulation.targetMs(1.0, 32, 0, 1);
        final double fourThreads = emulation.targetMs(1.0, 32, 0, 4);

        // then: 32 x 0.5 ms x 3 on one thread, a quarter of it on four
        assertThat(oneThread).isEqualTo(48.0);
        assertThat(fourThreads).isEqualTo(12.0);
    }

    @Test
    void shouldFollowTheScheduleStepByStepWhenOneIsGiven() {
        // given: 1 ms a sample, 2x slower from clock 20, 4x from 40, back to 1x from 60
        final ComputeEmulation emulation = ComputeEmulation.scheduled(1_000, Map.of(20L, 2.0, 40L, 4.0, 60L, 1.0));

        // when
        final double beforeFirstStep = emulation.targetMs(0.1, 10, 19, 1);
        final double onFirstStep = emulation.targetMs(0.1, 10, 20, 1);
        final double inSecondStep = emulation.targetMs(0.1, 10, 59, 1);
        final double afterLastStep = emulation.targetMs(0.1, 10, 60, 1);

        // then
        assertThat(beforeFirstStep).isEqualTo(10.0);
        assertThat(onFirstStep).isEqualTo(20.0);
        assertThat(inSecondStep).isEqualTo(40.0);
        assertThat(afterLastStep).isEqualTo(10.0);
        assertThat(emulation.slowdown()).isEqualTo(4.0);
        assertThat(emulation.slowdownFromClock()).isEqualTo(20);
        assertThat(emulation.active()).isTrue();
    }

    @Test
    void shouldKeepTheSingleStepWhenNoScheduleIsGiven() {
        // given
        final ComputeEmulation emulation = new ComputeEmulation(3.0, 50, 500);

        // when / then
        assertThat(emulation.slowdownAt(49)).isEqualTo(1.0);
        assertThat(emulation.slowdownAt(50)).isEqualTo(3.0);
        assertThat(emulation.schedule()).isEmpty();
    }

    @Test
    void shouldRefuseAScheduleStepFasterThanTheBase() {
        assertThatThrownBy(() -> ComputeEmulation.scheduled(1_000, Map.of(0L, 0.5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("factor >= 1");
    }

    @Test
    void shouldRefuseASpeedUp() {
        assertThatThrownBy(() -> new ComputeEmulation(0.5, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slowdown must be >= 1");
    }
}
