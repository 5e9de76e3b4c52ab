package io.paramhub.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyMeasuresTest {

    private static final long MS = 1_000_000;
    private static final BenchTask RMSE = new BenchTask(
            "t", "d", "linear", "rmse", true, 0.5, 1, 0.01, OptimizerKind.SGD, LearningRateScheduleKind.CONSTANT, null);
    private static final BenchTask ACCURACY = new BenchTask(
            "t",
            "d",
            "softmax",
            "accuracy",
            false,
            0.5,
            1,
            0.01,
            OptimizerKind.SGD,
            LearningRateScheduleKind.CONSTANT,
            null);

    /** Two workers, three clocks each: a fast one computing 10 ms and waiting 30, a slow one computing 40. */
    private static List<IterationRecord> iterations() {
        final long start = 1_000 * MS;
        return List.of(
                new IterationRecord("worker-000", 0, 5, 10, 500, 1, 0.5, start + 10 * MS),
                new IterationRecord("worker-001", 0, 5, 40, 500, 1, 0.5, start + 40 * MS),
                new IterationRecord("worker-000", 1, 5, 10, 30, 1, 0.5, start + 80 * MS),
                new IterationRecord("worker-001", 1, 5, 40, 0, 1, 0.5, start + 80 * MS),
                new IterationRecord("worker-000", 2, 5, 10, 30, 1, 0.5, start + 120 * MS),
                new IterationRecord("worker-001", 2, 5, 40, 0, 1, 0.5, start + 120 * MS));
    }

    @Test
    void shouldMeasureFromTheFirstComputeAndLeaveTheStartUpWaitOutWhenIterationsAreGiven() {
        // when
        final PolicyOutcome outcome = PolicyMeasures.compute("job", iterations(), List.of(), RMSE, 0.5, 0.1, 0.06, 2);

        // then: training from 1000 ms to 1120 ms; after the first clocks 60 ms waited, 100 ms computed
        assertThat(outcome.trainTimeS()).isCloseTo(0.12, within(1e-9));
        assertThat(outcome.idleFraction()).isCloseTo(60.0 / 160, within(1e-9));
        assertThat(outcome.efficiencyVsIdeal()).isCloseTo(0.5, within(1e-9));
        assertThat(outcome.iterTimeMeanMs()).isCloseTo(40, within(1e-9));
        assertThat(outcome.iterTimeSdMs()).isCloseTo(0, within(1e-9));
        assertThat(outcome.computeTimeMeanMs()).isCloseTo(25, within(1e-9));
        assertThat(outcome.computeTimeSdMs()).isCloseTo(15, within(1e-9));
        assertThat(outcome.utilization()).isCloseTo(0.150 / (2 * 0.12), within(1e-9));
        assertThat(outcome.computeCriticalPathS()).isCloseTo(3 * 0.040, within(1e-12));
        assertThat(outcome.perWorker().get(0).waitS()).isCloseTo(0.06, within(1e-12));
        assertThat(outcome.perWorker().get(1).waitS()).isZero();
        assertThat(outcome.perWorker().get(0).speed()).isCloseTo(500, within(1e-9));
        assertThat(outcome.perWorker().get(1).speed()).isCloseTo(125, within(1e-9));
        assertThat(outcome.iterTimeOverTime().stream()
                        .mapToInt(PolicyOutcome.IterationWindow::iterations)
                        .sum())
                .isEqualTo(4);
        assertThat(outcome.iterTimeOverTime()
                        .get(outcome.iterTimeOverTime().size() - 1)
                        .toS())
                .isEqualTo(outcome.trainTimeS());
    }

    @Test
    void shouldTakeTheFirstSampleThatReachesTheTargetWhenLowerIsBetter() {
        // given
        final long start = 1_000 * MS;
        final List<MetricSample> samples = List.of(
                new MetricSample(start - 5 * MS, 0, 3.0),
                new MetricSample(start + 50 * MS, 1, 0.7),
                new MetricSample(start + 90 * MS, 2, 0.45),
                new MetricSample(start + 110 * MS, 3, 0.3));

        // when
        final PolicyOutcome outcome = PolicyMeasures.compute("job", iterations(), samples, RMSE, 0.5, 0.3, 0.06, 2);

        // then
        assertThat(outcome.timeToTargetS()).isCloseTo(0.09, within(1e-9));
        assertThat(outcome.metricOverTime().get(0).timeS()).isZero();
        assertThat(outcome.metricOverTime()).hasSize(4);
    }

    @Test
    void shouldLeaveTheTimeToTargetOutWhenTheTargetIsNeverReached() {
        // given: accuracy must reach 0.9
        final List<MetricSample> samples =
                List.of(new MetricSample(1_050 * MS, 1, 0.6), new MetricSample(1_100 * MS, 2, 0.89));

        // when
        final PolicyOutcome outcome = PolicyMeasures.compute("job", iterations(), samples, ACCURACY, 0.9, 0.89, 0, 2);

        // then
        assertThat(outcome.timeToTargetS()).isNull();
        assertThat(outcome.efficiencyVsIdeal()).isNull();
    }
}
