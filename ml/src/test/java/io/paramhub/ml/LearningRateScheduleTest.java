package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Tests the learning-rate factor of each schedule. */
class LearningRateScheduleTest {

    @Test
    void shouldKeepTheConfiguredRateWhenConstant() {
        // given
        final LearningRateSchedule constant = LearningRateSchedule.constant();

        // when / then
        assertThat(constant.factor(0)).isEqualTo(1.0);
        assertThat(constant.factor(1_000_000)).isEqualTo(1.0);
    }

    @Test
    void shouldFallAlongHalfACosineToZeroWhenCosine() {
        // given
        final LearningRateSchedule cosine = LearningRateSchedule.cosine(100);

        // when / then: 1 at the start, 1/2 halfway, 0 at the end and after it
        assertThat(cosine.factor(0)).isEqualTo(1.0);
        assertThat(cosine.factor(25)).isCloseTo((1 + Math.sqrt(0.5)) / 2, within(1e-12));
        assertThat(cosine.factor(50)).isCloseTo(0.5, within(1e-12));
        assertThat(cosine.factor(100)).isZero();
        assertThat(cosine.factor(250)).isZero();
        for (int clock = 1; clock <= 100; clock++) {
            assertThat(cosine.factor(clock)).isLessThan(cosine.factor(clock - 1));
        }
    }

    @Test
    void shouldRejectAScheduleWithoutClocksOrANegativeClock() {
        assertThatThrownBy(() -> LearningRateSchedule.cosine(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LearningRateSchedule.constant().factor(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
