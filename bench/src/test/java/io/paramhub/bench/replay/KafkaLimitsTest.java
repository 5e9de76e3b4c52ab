package io.paramhub.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KafkaLimitsTest {

    @Test
    void shouldReadRatesFromProducerPerformancesSummaryWhenItFinishes() {
        // given: what ProducerPerformance prints
        final List<String> lines = List.of(
                "49153 records sent, 9830.6 records/sec (1.20 MB/sec), 2.1 ms avg latency",
                "50000 records sent, 11862.5 records/sec (1.45 MB/sec), 3.26 ms avg latency, 255.00 ms max latency, "
                        + "2 ms 50th, 7 ms 95th, 40 ms 99th, 180 ms 99.9th.");

        // when
        final KafkaLimits.Rate rate = KafkaLimits.producerRate(lines);

        // then
        assertThat(rate.recordsPerSecond()).isEqualTo(11862.5);
        assertThat(rate.megabytesPerSecond()).isEqualTo(1.45);
    }

    @Test
    void shouldReadRatesFromConsumerPerformancesColumnsWhenItFinishes() {
        // given: what ConsumerPerformance prints
        final List<String> lines = List.of(
                "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, "
                        + "nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec",
                "2026-11-22 14:30:00:000, 2026-11-22 14:30:02:000, 6.1035, 3.0518, 50000, 25000.0000, 300, 1700, "
                        + "3.5903, 29411.7647");

        // when
        final KafkaLimits.Rate rate = KafkaLimits.consumerRate(lines);

        // then
        assertThat(rate.recordsPerSecond()).isEqualTo(25000.0);
        assertThat(rate.megabytesPerSecond()).isEqualTo(3.0518);
    }

    @Test
    void shouldFailWhenAToolPrintedNoFigures() {
        assertThatThrownBy(() -> KafkaLimits.producerRate(List.of("ERROR: boom")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no summary");
    }
}
