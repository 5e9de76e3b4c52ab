package io.paramhub.orchestrator.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The loss curve: per-sample means over buckets of clocks, merged exactly when full. */
class LossCurveTest {

    @Test
    void shouldAverageLossPerSampleOverEveryWorkerOfAClock() {
        // given
        final LossCurve curve = new LossCurve(10);

        // when: two workers of unequal shares at clock 0, one at clock 1
        curve.add(0, 30.0, 30);
        curve.add(0, 10.0, 2);
        curve.add(1, 4.0, 8);

        // then: per sample, not per worker
        final List<LossCurve.Point> points = curve.points();
        assertThat(points).hasSize(2);
        assertThat(points.get(0).firstClock()).isZero();
        assertThat(points.get(0).meanLoss()).isCloseTo(40.0 / 32, within(1e-12));
        assertThat(points.get(1).meanLoss()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void shouldDoubleBucketWidthAndMergeExactlyWhenFull() {
        // given
        final LossCurve curve = new LossCurve(4);

        // when: 9 clocks, loss = clock per sample, 2 samples each
        for (int clock = 0; clock < 9; clock++) {
            curve.add(clock, 2.0 * clock, 2);
        }

        // then: buckets of 4 clocks, each the exact mean of its clocks
        assertThat(curve.width()).isEqualTo(4);
        assertThat(curve.points()).extracting(LossCurve.Point::firstClock).containsExactly(0L, 4L, 8L);
        assertThat(curve.points()).extracting(LossCurve.Point::meanLoss).containsExactly(1.5, 5.5, 8.0);
        assertThat(curve.points()).extracting(LossCurve.Point::samples).containsExactly(8L, 8L, 2L);
    }

    @Test
    void shouldIgnoreIterationsWithoutSamplesOrWithANonFiniteLoss() {
        // given
        final LossCurve curve = new LossCurve(4);

        // when
        curve.add(0, 1.0, 0);
        curve.add(1, Double.NaN, 5);

        // then
        assertThat(curve.points()).isEmpty();
    }
}
