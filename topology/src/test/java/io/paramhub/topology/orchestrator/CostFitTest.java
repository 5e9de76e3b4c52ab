package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CostFitTest {

    private static CostFit fed(
            final CostFit start, final double fixedMs, final double msPerSample, final int... samples) {
        CostFit fit = start;
        for (final int n : samples) {
            fit = fit.with(n, fixedMs + msPerSample * n);
        }
        return fit;
    }

    private static int[] times(final int count, final int samples) {
        final int[] all = new int[count];
        Arrays.fill(all, samples);
        return all;
    }

    @Test
    void shouldTellTheFixedPartApartOnceTheSamplesVary() {
        // when: 25 ms a clock plus 1.4 ms a sample, ten clocks at 32 samples, then five at 40
        final CostFit constant = fed(CostFit.NONE, 25, 1.4, times(10, 32));
        final CostFit varied = fed(constant, 25, 1.4, times(5, 40));

        // then: 25 ms is the time of 17.86 samples
        assertThat(constant.fixedSamples())
                .as("one sample count cannot tell the parts apart")
                .isZero();
        assertThat(varied.fixedSamples()).isCloseTo(25 / 1.4, within(1e-6));
        assertThat(varied.msPerSample(List.of(new JobState.Iteration(14, 40, 81))))
                .isCloseTo(1.4, within(1e-9));
    }

    @Test
    void shouldKeepTheFixedPartWhenTheWorkerSlowsDownAtOneShare() {
        // given: told apart, then sixty clocks at the same share, long enough for the spread to fade
        final CostFit told = fed(fed(CostFit.NONE, 25, 1.4, 32, 32, 32, 48, 48, 48), 25, 1.4, times(60, 48));

        // when: the worker becomes twice as slow in both parts, at the same share
        final CostFit slower = fed(told, 50, 2.8, times(30, 48));

        // then: the fixed part in samples' worth stands, and at the new speed it is 50 ms
        assertThat(told.fixedSamples()).isCloseTo(25 / 1.4, within(1e-6));
        assertThat(slower.fixedSamples()).isEqualTo(told.fixedSamples());
        final List<JobState.Iteration> window = List.of(new JobState.Iteration(1, 48, 50 + 2.8 * 48));
        assertThat(slower.fixedSamples() * slower.msPerSample(window)).isCloseTo(50, within(1e-6));
    }

    @Test
    void shouldNotTakeAChangeOfSpeedForAFixedPart() {
        // given: 1 ms a sample, nothing fixed, at 39 samples a clock
        final CostFit fast = fed(CostFit.NONE, 0, 1.0, times(10, 39));

        // when: the worker turns four times as slow, and a plan then cuts its share to 13 samples
        final CostFit slow = fed(fed(fast, 0, 4.0, 39), 0, 4.0, 13, 13, 13);

        // then: a fit over all of them would find 31 samples' worth fixed; the new regime finds none
        assertThat(slow.fixedSamples()).isZero();
        assertThat(slow.weight()).as("the fast clocks left out").isLessThan(4);
    }

    @Test
    void shouldNotTakeNoiseForAFixedPart() {
        // given: 25 ms a clock plus 1.4 ms a sample, each clock off by up to a third (cores shared with other work)
        final Random random = new Random(7);
        CostFit near = CostFit.NONE;
        CostFit apart = CostFit.NONE;

        // when: the shares move between 32 and 44 samples, or between 16 and 112
        for (int clock = 0; clock < 40; clock++) {
            final double noise = 1 + (2 * random.nextDouble() - 1) / 3;
            final int few = clock % 2 == 0 ? 32 : 44;
            final int many = clock % 2 == 0 ? 16 : 112;
            near = near.with(few, (25 + 1.4 * few) * noise);
            apart = apart.with(many, (25 + 1.4 * many) * noise);
        }

        // then: twelve samples apart the slope is lost in the noise; 96 apart the fit finds the fixed part
        assertThat(near.fixedSamples()).isZero();
        assertThat(apart.fixedSamples()).isCloseTo(25 / 1.4, within(10.0));
    }

    @Test
    void shouldNotGoBelowZeroNorFollowAFallingLine() {
        // when: time proportional to the samples minus a little, and time that falls as the samples grow
        final CostFit negative = fed(CostFit.NONE, -5, 2, 16, 24, 32, 40, 48);
        final CostFit falling = CostFit.NONE.with(30, 80).with(32, 75).with(34, 70);

        // then
        assertThat(negative.fixedSamples()).isZero();
        assertThat(falling.fixedSamples())
                .as("no positive cost a sample: nothing told apart")
                .isZero();
    }

    @Test
    void shouldForgetOldIterations() {
        // given: 10 ms fixed and 1 ms a sample, at shares that keep moving; then the fixed part grows to 14 ms
        final int[] alternating = new int[120];
        for (int i = 0; i < alternating.length; i++) {
            alternating[i] = i % 2 == 0 ? 32 : 48;
        }
        final CostFit first = fed(CostFit.NONE, 10, 1.0, alternating);

        // when
        final CostFit second = fed(first, 14, 1.0, alternating);

        // then
        assertThat(first.fixedSamples()).isCloseTo(10, within(1e-6));
        assertThat(second.fixedSamples()).isCloseTo(14, within(0.05));
    }
}
