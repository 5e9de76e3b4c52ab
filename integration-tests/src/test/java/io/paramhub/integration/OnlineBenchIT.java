package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.cli.ParamHubCli;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paramhub bench online} end to end, small: its report and plots, the rates it compares. */
@Tag("integration")
class OnlineBenchIT {

    @Test
    void shouldReportTheProducersRateTheSustainedRateAndFreshnessAtHalfOfIt(@TempDir final Path dir) throws Exception {
        // when
        final int code =
                ParamHubCli.execute("bench", "online", "--out", dir.toString(), "--examples", "4000", "--batch", "256");

        // then
        assertThat(code).isZero();
        final JsonNode report =
                new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(report.get("backlog_examples").asLong()).isEqualTo(4000);
        final double sustained = report.get("sustained_examples_per_second").asDouble();
        assertThat(sustained).isPositive();
        assertThat(report.get("ratio_to_producer").asDouble())
                .isEqualTo(
                        sustained / report.get("producer_examples_per_second").asDouble());
        final JsonNode half = report.get("at_half_rate");
        assertThat(half.get("rate").asDouble()).isEqualTo(sustained / 2);
        assertThat(half.get("examples").asLong()).isEqualTo(2000);
        assertThat(half.get("freshness_samples").asLong()).isPositive();
        assertThat(half.get("freshness_ms_p99").asDouble())
                .isGreaterThanOrEqualTo(half.get("freshness_ms_p50").asDouble());
        assertThat(dir.resolve("online-rates.png")).isNotEmptyFile();
        assertThat(dir.resolve("online-windows.png")).isNotEmptyFile();
    }
}
