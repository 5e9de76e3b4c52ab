package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.cli.ParamHubCli;
import io.paramhub.testing.ClusterTestBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paramhub bench --scenario round-cost} end to end on a tiny job (8 rounds of each model on the first
 * 1024 Fashion-MNIST images, 4 of the MLP's replayed): the report holds what a round cost, per model, and the
 * replay against Kafka's limits; and the options that do not apply are refused.
 */
@Tag("integration")
class RoundCostBenchIT extends ClusterTestBase {

    private static final int WORKERS = 4;

    @Test
    void shouldReportWhatARoundCostsForTheSoftmaxModelAndTheMlpWhenRunOnATinyJob(@TempDir final Path out)
            throws IOException {
        // given: the default models (softmax, the demo's MLP), 4 workers, batch 128, one epoch of 1024 images
        final String[] args = {
            "bench",
            "--scenario",
            "round-cost",
            "--train-samples",
            "1024",
            "--replay-clocks",
            "4",
            "--out",
            out.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--registry-url",
            registry.url()
        };

        // when
        final int exit = ParamHubCli.execute(args);

        // then: a report of both models
        assertThat(exit).isZero();
        final JsonNode report =
                new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(report.get("scenario").asText()).isEqualTo("round-cost");
        assertThat(report.get("workers").asInt()).isEqualTo(WORKERS);
        assertThat(report.get("transactions_source").asText()).contains("commit-total");
        final List<String> models = new ArrayList<>();
        report.get("models").forEach(model -> models.add(model.get("model").asText()));
        assertThat(models).containsExactly("softmax", "mlp");
        for (final JsonNode model : report.get("models")) {
            final String name = model.get("model").asText();
            assertThat(model.get("rounds").asLong()).as(name).isEqualTo(8);
            assertThat(model.get("rounds_per_second").asDouble()).as(name).isPositive();
            assertThat(model.get("startup_seconds").asDouble()).as(name).isPositive();
            assertThat(model.get("wait_ms_p99").asDouble())
                    .as(name)
                    .isGreaterThanOrEqualTo(model.get("wait_ms_p50").asDouble());
            // the aggregator's transactions are counted; the commit interval paces them, not the rounds (workers
            // read versions before they commit), so eight fast rounds may take fewer than eight
            assertThat(model.get("transactions_per_round").asDouble()).as(name).isPositive();
            // every worker's gradient of every parameter went to gradients, and a model version to model
            assertThat(bytesPerRound(model, "paramhub.gradients"))
                    .as(name)
                    .isGreaterThanOrEqualTo(
                            model.get("gradient_payload_bytes_per_round").asDouble());
            assertThat(bytesPerRound(model, "paramhub.model"))
                    .as(name)
                    .isGreaterThanOrEqualTo(4.0 * model.get("parameters").asLong());
            // the aggregator's changelogs are listed with the rest
            assertThat(topicNames(model)).as(name).anyMatch(topic -> topic.endsWith("-changelog"));
            assertThat(model.get("kafka_over_in_process").asDouble()).as(name).isPositive();
            assertThat(model.get("in_process").get("final_model_equals_kafka").asBoolean())
                    .as(name)
                    .isTrue();
        }
        final JsonNode mlp = report.get("models").get(1);
        assertThat(mlp.get("shards").asInt()).isEqualTo(4);

        // and the MLP's replay against Kafka's own limits, at its gradient-record size
        final JsonNode replay = report.get("replay");
        assertThat(replay.get("model").asText()).isEqualTo("mlp");
        assertThat(replay.get("clocks").asLong()).isEqualTo(4);
        // the workers of one process send their host's sum: one record a shard (4) a clock (4)
        assertThat(replay.get("gradients").asLong()).isEqualTo(4L * 4);
        assertThat(replay.get("final_model_equals_in_process").asBoolean()).isTrue();
        final JsonNode limits = replay.get("kafka_limits");
        final long recordSize = limits.get("record_size_bytes").asLong();
        assertThat(recordSize).isGreaterThan(4L * 235_146 / 4);
        assertThat(bytesPerRound(mlp, "paramhub.gradients")).isGreaterThanOrEqualTo(4.0 * recordSize);
        assertThat(limits.get("aggregator_record_mb_per_s").asDouble()).isPositive();
        assertThat(limits.get("producer_performance").get("mb_per_s").asDouble())
                .isPositive();
        assertThat(limits.get("streams_pass_through_eos").get("mb_per_s").asDouble())
                .isPositive();
        assertThat(replay.get("aggregator_mb_over_pass_through_mb").asDouble()).isPositive();

        // and the plots are PNG images
        for (final String plot : List.of("bytes-per-round.png", "round-time.png")) {
            assertThat(ImageIO.read(Files.newInputStream(out.resolve(plot))))
                    .as(plot)
                    .isNotNull();
        }
    }

    @Test
    void shouldRefuseAPolicyOptionWithRoundCost(@TempDir final Path out) {
        // when
        final CliRun outcome = CliRun.of("bench", "round-cost", "--policies", "bsp", "--out", out.toString());

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("Unknown option", "'--policies'");
    }

    @Test
    void shouldRefuseAnUnknownModelWithRoundCost(@TempDir final Path out) {
        // when
        final CliRun outcome =
                CliRun.of("bench", "--scenario", "round-cost", "--models", "softmax,resnet", "--out", out.toString());

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("--models: unknown model kind 'resnet'");
    }

    @Test
    void shouldRefuseRoundCostOptionsWithAPolicyScenario(@TempDir final Path out) {
        // when
        final CliRun outcome = CliRun.of("bench", "straggler-3x", "--models", "mlp", "--out", out.toString());

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err()).contains("Unknown option", "'--models'");
    }

    private static double bytesPerRound(final JsonNode model, final String topic) {
        for (final JsonNode entry : model.get("topics")) {
            if (entry.get("topic").asText().equals(topic)) {
                return entry.get("bytes_per_round").asDouble();
            }
        }
        throw new AssertionError("no topic " + topic + " in " + topicNames(model));
    }

    private static List<String> topicNames(final JsonNode model) {
        final List<String> names = new ArrayList<>();
        model.get("topics").forEach(entry -> names.add(entry.get("topic").asText()));
        return names;
    }
}
