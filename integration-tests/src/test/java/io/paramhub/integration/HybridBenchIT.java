package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.cli.ParamHubCli;
import io.paramhub.testing.ClusterTestBase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paramhub bench --scenario hybrid} end to end on a tiny job (mlp:32, 4 workers, 8 rounds of batch 64,
 * data-parallel then 2 replicas x 2 stages): the report's structure, and the bytes that do not depend on
 * timing: the activations the stages' cut says a round moves, gradients of fewer parameters in the hybrid run;
 * and the options that do not apply are refused. No timing is asserted.
 */
@Tag("integration")
class HybridBenchIT extends ClusterTestBase {

    private static final int WORKERS = 4;
    private static final int BATCH = 64;
    /** mlp:32 on 784 inputs and 10 classes: 784 x 32 + 32 + 32 x 10 + 10. */
    private static final long PARAMETERS = 784L * 32 + 32 + 32 * 10 + 10;

    @Test
    void shouldReportDataParallelAndHybridRunsWithTheBytesTheirCutAndParametersSay(@TempDir final Path out)
            throws IOException {
        // given: an MLP with one hidden layer of 32 units, cut after it: 32 floats a sample cross the cut
        final String[] args = {
            "bench",
            "--scenario",
            "hybrid",
            "--model",
            "mlp:32",
            "--train-samples",
            "512",
            "--batch",
            Integer.toString(BATCH),
            "--workers",
            Integer.toString(WORKERS),
            "--stages",
            "2",
            "--sample-cost-us",
            "100",
            "--out",
            out.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--registry-url",
            registry.url()
        };

        // when
        final int exit = ParamHubCli.execute(args);

        // then: the settings and both runs, data-parallel first
        assertThat(exit).isZero();
        final JsonNode report =
                new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(report.get("scenario").asText()).isEqualTo("hybrid");
        assertThat(report.get("model").asText()).isEqualTo("mlp:32");
        assertThat(report.get("parameters").asLong()).isEqualTo(PARAMETERS);
        assertThat(report.get("replicas").asInt()).isEqualTo(2);
        assertThat(report.get("emulation").get("sample_cost_us").asLong()).isEqualTo(100);
        final JsonNode shares = report.get("emulation").get("stage_compute_shares");
        assertThat(shares.get(0).asDouble() + shares.get(1).asDouble()).isCloseTo(1.0, within());
        // stage 0 holds 784 x 32 multiply-adds of the 784 x 32 + 32 x 10
        assertThat(shares.get(0).asDouble()).isCloseTo(784.0 * 32 / (784 * 32 + 32 * 10), within());
        final JsonNode dataParallel = report.get("runs").get(0);
        final JsonNode hybrid = report.get("runs").get(1);
        assertThat(dataParallel.get("name").asText()).isEqualTo("data-parallel");
        assertThat(hybrid.get("name").asText()).isEqualTo("hybrid");
        for (final JsonNode run : report.get("runs")) {
            final String name = run.get("name").asText();
            assertThat(run.get("rounds").asLong()).as(name).isEqualTo(512 / BATCH);
            assertThat(run.get("per_worker")).as(name).hasSize(WORKERS);
            assertThat(run.get("rounds_per_s").asDouble()).as(name).isPositive();
            assertThat(run.get("compute_ms_mean").asDouble()).as(name).isPositive();
            assertThat(run.get("test_metric_name").asText()).as(name).isEqualTo("accuracy");
            assertThat(run.get("test_metric").asDouble()).as(name).isBetween(0.0, 1.0);
            // every published gradient value went through the gradients topic, with its record overhead
            assertThat(run.get("gradient_bytes_per_round").asDouble())
                    .as(name)
                    .isGreaterThanOrEqualTo(
                            4.0 * run.get("gradient_floats_per_round").asLong());
            assertThat(bytesPerRound(run, "paramhub.gradients"))
                    .as(name)
                    .isEqualTo(run.get("gradient_bytes_per_round").asDouble());
        }

        // and data-parallel: every worker holds and publishes the whole model, no activations
        assertThat(dataParallel.get("stages").asInt()).isEqualTo(1);
        assertThat(dataParallel.get("gradient_floats_per_round").asLong()).isEqualTo(WORKERS * PARAMETERS);
        assertThat(dataParallel.get("parameters_held_max_fraction").asDouble()).isEqualTo(1.0);
        assertThat(dataParallel.get("activation_bytes_per_round").asDouble()).isZero();
        assertThat(dataParallel.get("activation_payload_bytes_per_round").asDouble())
                .isZero();

        // and hybrid: each replica publishes the model's gradient once, shared between its two stages
        assertThat(hybrid.get("stages").asInt()).isEqualTo(2);
        assertThat(hybrid.get("gradient_floats_per_round").asLong()).isEqualTo(2 * PARAMETERS);
        assertThat(hybrid.get("parameters_held_max_fraction").asDouble()).isLessThan(1.0);
        final List<Integer> stages = new ArrayList<>();
        hybrid.get("per_worker")
                .forEach(worker -> stages.add(worker.get("stage").asInt()));
        assertThat(stages).containsExactly(0, 1, 0, 1);
        // the activations: every sample's 32 hidden units forward and their gradients back, as the cut says
        final long activations = (long) BATCH * 32 * 4 * 2;
        assertThat(hybrid.get("activation_payload_bytes_per_round_expected").asLong())
                .isEqualTo(activations);
        assertThat(hybrid.get("activation_payload_bytes_per_round").asDouble()).isEqualTo((double) activations);
        assertThat(hybrid.get("activation_bytes_per_round").asDouble()).isGreaterThanOrEqualTo(activations);
        // with a cut this narrow next to 25k parameters the hybrid run writes fewer gradient bytes a round
        assertThat(hybrid.get("gradient_bytes_per_round").asDouble())
                .isLessThan(dataParallel.get("gradient_bytes_per_round").asDouble());
        assertThat(hybrid.get("model_bytes_read_per_round_estimate").asDouble())
                .isLessThan(
                        dataParallel.get("model_bytes_read_per_round_estimate").asDouble());

        // and the verdicts say so, with the payload break-even batch: 2 x 25,450 floats saved / (32 x 2 floats)
        final JsonNode verdicts = report.get("verdicts");
        assertThat(verdicts.get("gradients").asText()).startsWith("hybrid writes fewer gradient bytes");
        assertThat(verdicts.get("activations").asText()).contains("batch 64 x 32 floats across the cuts");
        assertThat(verdicts.get("model_reads").asText()).startsWith("hybrid's workers read fewer");
        assertThat(report.get("break_even_batch").asDouble()).isCloseTo(2.0 * PARAMETERS / (32 * 2), within());
    }

    @Test
    void shouldRefuseAPolicyOptionWithHybrid(@TempDir final Path out) {
        final CliRun outcome = CliRun.of("bench", "hybrid", "--policies", "bsp", "--out", out.toString());

        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("Unknown option", "'--policies'");
    }

    @Test
    void shouldRefuseAggregatorOptionsWithHybridAndRoundCost(@TempDir final Path out) {
        final CliRun hybrid = CliRun.of("bench", "hybrid", "--aggregator-slowdown", "1:4", "--out", out.toString());
        final CliRun roundCost = CliRun.of("bench", "round-cost", "--aggregators", "2", "--out", out.toString());

        assertThat(hybrid.code()).isEqualTo(2);
        assertThat(hybrid.err()).contains("Unknown option", "'--aggregator-slowdown'");
        assertThat(roundCost.code()).isEqualTo(2);
        assertThat(roundCost.err()).contains("Unknown option", "'--aggregators'");
    }

    @Test
    void shouldRefuseWorkersThatAreNotWholeReplicas(@TempDir final Path out) {
        final CliRun outcome =
                CliRun.of("bench", "--scenario", "hybrid", "--workers", "3", "--stages", "2", "--out", out.toString());

        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("--workers a multiple of --stages (2)");
    }

    @Test
    void shouldRefuseAModelThatCannotBeCut(@TempDir final Path out) {
        final CliRun outcome =
                CliRun.of("bench", "--scenario", "hybrid", "--model", "softmax", "--out", out.toString());

        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("--model softmax cannot be cut into 2 pipeline stages");
    }

    @Test
    void shouldRefuseStagesWithTheOtherScenarios(@TempDir final Path out) {
        final CliRun roundCost = CliRun.of("bench", "round-cost", "--stages", "2", "--out", out.toString());
        final CliRun policies =
                CliRun.of("bench", "--scenario", "homogeneous", "--micro-batches", "2", "--out", out.toString());

        assertThat(roundCost.code()).isEqualTo(2);
        assertThat(roundCost.err()).contains("Unknown option", "'--stages'");
        assertThat(policies.code()).isEqualTo(2);
        assertThat(policies.err()).contains("Unknown option", "'--micro-batches'");
    }

    private static Offset<Double> within() {
        return Offset.offset(1e-9);
    }

    private static double bytesPerRound(final JsonNode run, final String topic) {
        for (final JsonNode entry : run.get("topics")) {
            if (entry.get("topic").asText().equals(topic)) {
                return entry.get("bytes_per_round").asDouble();
            }
        }
        throw new AssertionError("no topic " + topic + " in " + run.get("topics"));
    }
}
