package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.cli.ParamHubCli;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paramhub demo} as a user runs it: embedded broker and registry, a report on disk. */
@Tag("integration")
class DemoCommandIT {

    @Test
    void shouldTrainOnEmbeddedBrokerAndWriteReport(@TempDir final Path dir) throws Exception {
        // given
        final Path report = dir.resolve("r.json");

        // when
        final int code = ParamHubCli.execute(
                "demo",
                "--model",
                "linear",
                "--workers",
                "2",
                "--epochs",
                "4",
                "--lr",
                "0.01",
                "--shards",
                "3",
                "--report",
                report.toString());

        // then
        assertThat(code).isZero();
        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertThat(json.get("sync").asText()).isEqualTo("bsp");
        assertThat(json.get("workers").asInt()).isEqualTo(2);
        assertThat(json.get("epochs").asInt()).isEqualTo(4);
        assertThat(json.get("iterations").asLong()).isEqualTo(4 * (4096 / 128));
        assertThat(json.get("wall_seconds").asDouble()).isPositive();
        assertThat(json.get("per_epoch")).hasSize(4);
        // noise of the default linear problem is 0.1: the test RMSE must come down close to it
        assertThat(json.get("final_test_rmse").asDouble()).isLessThan(0.12);
        assertThat(json.get("dead_letters").asLong()).isZero();
    }

    @Test
    void shouldTrainInPipelineStagesAndReportWhatEachWorkerHolds(@TempDir final Path dir) throws Exception {
        // given
        final Path report = dir.resolve("hybrid.json");

        // when 2 replicas x 2 stages of mlp:32 (784-32-10: 25,120 + 330 parameters), one epoch
        final int code = ParamHubCli.execute(
                "demo",
                "--model",
                "mlp:32",
                "--stages",
                "2",
                "--workers",
                "4",
                "--epochs",
                "1",
                "--report",
                report.toString());

        // then
        assertThat(code).isZero();
        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertThat(json.get("stages").asInt()).isEqualTo(2);
        assertThat(json.get("replicas").asInt()).isEqualTo(2);
        assertThat(json.get("max_parameters_fraction").asDouble()).isEqualTo(25_120.0 / 25_450);
        // every sample's 32 hidden activations go forward once and their gradients back once
        final long iterations = json.get("iterations").asLong();
        assertThat(json.get("activation_bytes").asLong()).isEqualTo(iterations * 128 * 32 * 4 * 2);
        assertThat(json.get("per_stage")).hasSize(2);
        assertThat(json.get("per_stage").get(1).get("parameters").asLong()).isEqualTo(330);
        for (final JsonNode worker : json.get("per_worker")) {
            final int index = Integer.parseInt(worker.get("worker").asText().substring("worker-".length()));
            assertThat(worker.get("stage").asInt()).isEqualTo(index % 2);
        }
        assertThat(json.get("final_test_accuracy").asDouble()).isGreaterThan(0.75);
        assertThat(json.get("dead_letters").asLong()).isZero();
    }

    @Test
    void shouldRefuseStagesOfAModelThatCannotBeCut() {
        // when
        final CliRun outcome = CliRun.of("demo", "--model", "linear", "--stages", "2");

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("model linear cannot be cut into pipeline stages");
    }

    @Test
    void shouldRefuseAnUnknownSyncMode() {
        // when
        final CliRun outcome = CliRun.of("demo", "--sync", "hogwild");

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("--sync must be bsp, ssp or asp, not hogwild");
    }

    @Test
    void shouldRefuseAnUnknownLearningRateSchedule() {
        // when
        final CliRun outcome = CliRun.of("demo", "--model", "linear", "--lr-schedule", "triangle");

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("--lr-schedule must be constant or cosine, not triangle");
    }

    @Test
    void shouldRefuseADashboardPortWithoutTheDashboard() {
        // when
        final CliRun outcome = CliRun.of("demo", "--dashboard-port", "8099");

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("--dashboard-port must be a port").contains("given with --dashboard");
    }

    @Test
    void shouldExplainAnInvalidJobInOneLine() {
        // when
        final CliRun outcome = CliRun.of("demo", "--model", "linear", "--workers", "8", "--batch", "4");

        // then
        assertThat(outcome.code()).isEqualTo(1);
        assertThat(outcome.err())
                .contains("paramhub: invalid job")
                .contains("globalBatch (4) must be at least the worker count (8)");
    }
}
