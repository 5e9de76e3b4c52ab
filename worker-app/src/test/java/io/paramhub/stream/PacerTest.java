package io.paramhub.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PacerTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);
    /** What a step costs besides its pause in the simulations: sending, and the sleep overshooting. */
    private static final long STEP_OVERHEAD = TimeUnit.MICROSECONDS.toNanos(80);

    /** The largest step and the examples sent when a sender paced by {@code pacer} runs for {@code nanos}. */
    private record Simulation(long largestStep, long sent, long longestPause) {}

    private static Simulation simulate(final Pacer pacer, final long nanos) {
        long now = 0;
        long sent = 0;
        long largestStep = 0;
        long longestPause = 0;
        while (now < nanos) {
            final long due = pacer.due(now);
            largestStep = Math.max(largestStep, due - sent);
            sent = due;
            final long pause = pacer.pause(sent, now);
            longestPause = Math.max(longestPause, pause);
            now += pause + STEP_OVERHEAD;
        }
        return new Simulation(largestStep, sent, longestPause);
    }

    @Test
    void shouldDueTheFirstExampleAtOnceAndOneMoreEachPeriodWhenPaced() {
        // given
        final Pacer pacer = new Pacer(1000);

        // then: example k is due k ms after the start
        assertThat(pacer.due(0)).isEqualTo(1);
        assertThat(pacer.due(MILLI - 1)).isEqualTo(1);
        assertThat(pacer.due(MILLI)).isEqualTo(2);
        assertThat(pacer.due(SECOND)).isEqualTo(1001);
    }

    @Test
    void shouldSendAtMostTenMillisecondsOfExamplesInAStepWhenStreamingForTwoSeconds() {
        for (final double rate : new double[] {1, 37, 1000, 25_000, 1_000_000}) {
            // given
            final Pacer pacer = new Pacer(rate);

            // when
            final Simulation run = simulate(pacer, 2 * SECOND);

            // then: no step holds more than the examples of 10 ms (and the overhead), no pause is longer
            final double stepSeconds = (Pacer.STEP_NANOS + STEP_OVERHEAD) / 1e9;
            assertThat(run.largestStep()).as("rate %s", rate).isLessThanOrEqualTo((long) (rate * stepSeconds) + 1);
            assertThat(run.longestPause()).as("rate %s", rate).isLessThanOrEqualTo(Pacer.STEP_NANOS);
            // and two seconds hold two seconds of examples, less those of the last step at most
            assertThat((double) run.sent()).as("rate %s", rate).isBetween(rate * (2 - stepSeconds) - 1, 2 * rate + 1);
        }
    }

    @Test
    void shouldPauseTenMillisecondsWhenTheNextExampleIsLongAway() {
        // given: one example a second, the first sent
        final Pacer pacer = new Pacer(1);

        // then
        assertThat(pacer.pause(1, 0)).isEqualTo(Pacer.STEP_NANOS);
        assertThat(pacer.pause(1, SECOND - 3 * MILLI)).isEqualTo(3 * MILLI);
        assertThat(pacer.pause(1, SECOND)).isZero();
    }

    @Test
    void shouldPauseAtLeastOneMillisecondWhenTheRateIsHigh() {
        // given: a million a second, what is due sent
        final Pacer pacer = new Pacer(1_000_000);

        // then: the next one is due in a microsecond, yet the sender sleeps a millisecond and sends a thousand
        assertThat(pacer.pause(pacer.due(0), 0)).isEqualTo(Pacer.MIN_PAUSE_NANOS);
        assertThat(pacer.due(Pacer.MIN_PAUSE_NANOS)).isEqualTo(1001);
    }

    @Test
    void shouldCatchUpWhenTheSenderWasHeldUp() {
        // given: 100 a second, 1 sent, then a stall of a second
        final Pacer pacer = new Pacer(100);

        // then: what fell due meanwhile is due now, and no pause
        assertThat(pacer.due(SECOND)).isEqualTo(101);
        assertThat(pacer.pause(1, SECOND)).isZero();
    }

    @Test
    void shouldDueEverythingAtOnceWhenTheRateIsZero() {
        // given
        final Pacer pacer = new Pacer(0);

        // then
        assertThat(pacer.unlimited()).isTrue();
        assertThat(pacer.due(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(pacer.pause(1_000_000, 0)).isZero();
    }

    @Test
    void shouldRefuseARateThatIsNegativeOrNotANumber() {
        assertThatThrownBy(() -> new Pacer(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Pacer(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Pacer(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    }
}
