package io.paramhub.topology.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RoundTimerTest {

    @Test
    void shouldPadAShardRoundToTheBaseCostTimesTheSlowdown() {
        // given an instance 3x slower than a 10 ms base cost, whose sleeps are counted, not slept
        final List<Long> slept = new ArrayList<>();
        final RoundTimer timer = new SlowServerEmulation(
                RoundTimer.measuring(), new AggregatorInstance("slow", 10_000, 3.0), slept::add);

        // when a round that really took next to nothing is published
        timer.begin();
        final RoundTimer.Round round = timer.round("job/0");
        timer.end("job/0");

        // then it is padded to 30 ms
        assertThat(slept).hasSize(1);
        assertThat(round.totalMs()).isCloseTo(30.0, within(0.5));
        assertThat(round.emulatedMs()).isCloseTo(30.0 - round.busyMs(), within(1e-6));
    }

    @Test
    void shouldPadNothingOnAnInstanceWithoutEmulation() {
        // given
        final List<Long> slept = new ArrayList<>();
        final RoundTimer timer =
                new SlowServerEmulation(RoundTimer.measuring(), new AggregatorInstance("plain", 0, 1.0), slept::add);

        // when
        timer.begin();
        final RoundTimer.Round round = timer.round("job/0");

        // then
        assertThat(slept).isEmpty();
        assertThat(round.emulatedMs()).isZero();
    }

    @Test
    void shouldCountOnlyTheTimeSpentOnTheShardSinceItsLastRound() {
        // given two records of shard a and one of shard b before a's round
        final RoundTimer timer = RoundTimer.measuring();
        timer.begin();
        busy(5);
        timer.end("job/a");
        timer.begin();
        busy(5);
        timer.end("job/b");
        timer.begin();

        // when
        final RoundTimer.Round first = timer.round("job/a");
        timer.end("job/a");
        timer.begin();
        final RoundTimer.Round second = timer.round("job/a");

        // then the first round holds a's first record (at least 5 ms), not b's; the second starts afresh
        assertThat(first.busyMs()).isGreaterThanOrEqualTo(5.0);
        assertThat(second.busyMs()).isLessThan(first.busyMs());
    }

    @Test
    void shouldRefuseAnIdTooLongForAClientTagAndASlowdownBelowOne() {
        assertThatThrownBy(() -> new AggregatorInstance("x".repeat(31), 0, 1.0))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(AggregatorInstance.INSTANCE_ID_CONFIG);
        assertThatThrownBy(() -> AggregatorInstance.from(
                        Map.of(AggregatorInstance.INSTANCE_ID_CONFIG, "a", AggregatorInstance.SLOWDOWN_CONFIG, "0.5")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(AggregatorInstance.SLOWDOWN_CONFIG);
        assertThat(AggregatorInstance.defaultId()).hasSizeLessThanOrEqualTo(AggregatorInstance.MAX_ID_LENGTH);
    }

    private static void busy(final long ms) {
        final long until = System.nanoTime() + ms * 1_000_000;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
