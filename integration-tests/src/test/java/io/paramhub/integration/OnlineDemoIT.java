package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.cli.ParamHubCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paramhub demo --online} end to end on the embedded cluster: a CSV's training rows streamed into a topic
 * (looped), trained from it, labels permuted half-way (concept drift), the report's {@code online} object.
 */
@Tag("integration")
class OnlineDemoIT {

    @Test
    void shouldTrainFromTheStreamedTopicAndShowTheDropAndRecoveryOfAConceptDrift(@TempDir final Path dir)
            throws Exception {
        // given: 3 well-separated clusters, 120 training rows
        final Path file = CsvDemoIT.clusters(dir);
        final Path report = dir.resolve("r.json");

        // when: 900 examples streamed, labels permuted from the 300th
        final int code = ParamHubCli.execute(
                "demo",
                "--online",
                "--dataset",
                "csv:" + file + ",label=species,holdout=0.2,seed=3",
                "--model",
                "softmax",
                "--workers",
                "2",
                "--batch",
                "16",
                "--max-examples",
                "900",
                "--drift-at",
                "300",
                "--window",
                "150",
                "--rate",
                "2000",
                "--report",
                report.toString());

        // then: every example trained once, none set aside, freshness measured
        assertThat(code).isZero();
        final JsonNode online = new ObjectMapper().readTree(report.toFile()).get("online");
        assertThat(online.get("examples").asLong()).isEqualTo(900);
        assertThat(online.get("dead_letters").asLong()).isZero();
        assertThat(online.get("freshness_ms").get("samples").asLong()).isPositive();
        final List<Double> accuracy = new ArrayList<>();
        long windowed = 0;
        for (final JsonNode window : online.get("prequential")) {
            accuracy.add(window.get("accuracy").asDouble());
            windowed += window.get("examples").asLong();
        }
        assertThat(windowed).isEqualTo(900);
        // and the model learned the clusters, lost them when the labels moved, and learned them again
        assertThat(accuracy).hasSizeGreaterThanOrEqualTo(5);
        final double beforeDrift = accuracy.get(1);
        final double afterDrift = accuracy.get(2);
        assertThat(beforeDrift).isGreaterThanOrEqualTo(0.6);
        assertThat(afterDrift).isLessThan(beforeDrift - 0.3);
        assertThat(accuracy.get(accuracy.size() - 1)).isGreaterThanOrEqualTo(0.8);
    }
}
