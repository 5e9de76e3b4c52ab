package io.paramhub.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BenchReportTest {

    @Test
    void shouldDivideTheBaselineTimeByThePolicysWhenBothAreKnown() {
        // when / then
        assertThat(BenchReport.ratio(12.0, 4.0)).isEqualTo(3.0);
    }

    @Test
    void shouldGiveNoRatioWhenATimeIsMissing() {
        // when / then
        assertThat(BenchReport.ratio(null, 4.0)).isNull();
        assertThat(BenchReport.ratio(12.0, null)).isNull();
        assertThat(BenchReport.ratio(12.0, 0.0)).isNull();
    }
}
