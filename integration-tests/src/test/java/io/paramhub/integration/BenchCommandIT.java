package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.cli.ParamHubCli;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.LinearRegression;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paramhub bench} on a tiny scenario: the report's schema, and figures that agree with what the run wrote to Kafka. */
@Tag("integration")
class BenchCommandIT extends ClusterTestBase {

    private static final String DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";

    @Test
    void shouldWriteAReportWhoseFiguresComeFromTheRunWhenTwoPoliciesRunATinyStragglerScenario(@TempDir final Path out)
            throws IOException {
        // given: 3 workers, one epoch (32 clocks), 500 us a sample, the last worker 3x slower
        final String[] args = {
            "bench",
            "--scenario",
            "straggler-3x",
            "--policies",
            "bsp,paramhub",
            "--workers",
            "3",
            "--epochs",
            "1",
            "--sample-cost-us",
            "500",
            "--lr",
            "0.01",
            "--target",
            "1.0",
            "--no-warm-up",
            "--timeline-seconds",
            "1",
            "--out",
            out.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--registry-url",
            registry.url()
        };

        // when
        final int exit = ParamHubCli.execute(args);

        // then: the schema
        assertThat(exit).isZero();
        final JsonNode report =
                new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(report.get("scenario").asText()).isEqualTo("straggler-3x");
        assertThat(report.get("workers").asInt()).isEqualTo(3);
        assertThat(report.get("task").asText()).isEqualTo("linear-rmse");
        assertThat(report.get("target").asDouble()).isEqualTo(1.0);
        assertThat(report.get("emulation").get("sample_cost_us").asLong()).isEqualTo(500);
        final JsonNode bsp = report.get("policies").get(0);
        final JsonNode paramhub = report.get("policies").get(1);
        assertThat(bsp.get("name").asText()).isEqualTo("bsp");
        assertThat(paramhub.get("name").asText()).isEqualTo("paramhub");
        for (final JsonNode policy : report.get("policies")) {
            assertThat(policy.fieldNames())
                    .toIterable()
                    .contains(
                            "name",
                            "time_to_target_s",
                            "speedup_vs_bsp",
                            "efficiency_vs_ideal",
                            "iter_time_mean_ms",
                            "iter_time_sd_ms",
                            "idle_fraction",
                            "final_metric");
        }

        // and the figures: speed-up is the ratio of the report's times to target
        assertThat(bsp.get("time_to_target_s").isNumber()).isTrue();
        assertThat(paramhub.get("time_to_target_s").isNumber()).isTrue();
        assertThat(bsp.get("speedup_vs_bsp").asDouble()).isEqualTo(1.0);
        assertThat(paramhub.get("speedup_vs_bsp").asDouble())
                .isCloseTo(
                        bsp.get("time_to_target_s").asDouble()
                                / paramhub.get("time_to_target_s").asDouble(),
                        within(1e-9));
        // the ideal: 32 clocks of 128 samples at 2 x 2000 + 666.7 samples/s
        assertThat(report.get("ideal_time_s").asDouble()).isCloseTo(32 * 128 / (2 * 2000 + 2000 / 3.0), within(1e-9));
        for (final JsonNode policy : report.get("policies")) {
            final String job = policy.get("job").asText();
            // time to target is when the sampled metric first reached it
            final JsonNode first = firstReaching(policy.get("metric_over_time"), 1.0);
            assertThat(policy.get("time_to_target_s").asDouble())
                    .isEqualTo(first.get("t_s").asDouble());
            // efficiency is the ideal over the training time, within (0, 1]
            assertThat(policy.get("efficiency_vs_ideal").asDouble())
                    .isGreaterThan(0)
                    .isLessThanOrEqualTo(1)
                    .isCloseTo(
                            report.get("ideal_time_s").asDouble()
                                    / policy.get("train_time_s").asDouble(),
                            within(1e-9));
            // idle fraction and iteration time match the telemetry the workers published
            final List<IterationTelemetry> telemetry = telemetry(job);
            assertThat(telemetry).hasSize(3 * 32);
            final List<IterationTelemetry> steady =
                    telemetry.stream().filter(t -> t.getClock() > 0).toList();
            final double wait =
                    steady.stream().mapToDouble(IterationTelemetry::getWaitMs).sum();
            final double compute = steady.stream()
                    .mapToDouble(IterationTelemetry::getComputeMs)
                    .sum();
            assertThat(policy.get("idle_fraction").asDouble()).isCloseTo(wait / (wait + compute), within(1e-9));
            assertThat(policy.get("iter_time_mean_ms").asDouble())
                    .isCloseTo((wait + compute) / steady.size(), within(1e-6));
            // the final metric is the test RMSE of the last model on the model topic
            final float[] model = finalModel(job);
            assertThat(policy.get("final_metric").asDouble())
                    .isEqualTo(Evaluation.rmse(
                            new LinearRegression(16),
                            model,
                            DataSources.load(DATASET).test()));
            assertThat(policy.get("per_worker")).hasSize(3);
        }
        // the orchestrator gave the straggler a smaller share, the plain BSP run did not
        assertThat(paramhub.get("per_worker").get(2).get("last_share").asDouble())
                .isLessThan(1.0 / 3);
        assertThat(bsp.get("per_worker").get(2).get("last_share").asDouble()).isCloseTo(1.0 / 3, within(0.01));

        // and the plots are PNG images
        for (final String plot : List.of("metric-over-time.png", "iteration-time-sd.png", "worker-timeline.png")) {
            assertThat(ImageIO.read(Files.newInputStream(out.resolve(plot))))
                    .as(plot)
                    .isNotNull();
        }
    }

    @Test
    void shouldTrainTheChosenNetworkOnTheFashionTaskWithItsRecipeWhenGivenAModel(@TempDir final Path out)
            throws IOException {
        // given: the MLP on the 8192-image Fashion-MNIST task, 2 workers, one epoch of batch 256 (32 clocks)
        final String[] args = {
            "bench",
            "homogeneous",
            "--policies",
            "bsp",
            "--model",
            "mlp",
            "--workers",
            "2",
            "--epochs",
            "1",
            "--batch",
            "256",
            "--sample-cost-us",
            "0",
            "--no-warm-up",
            "--out",
            out.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--registry-url",
            registry.url()
        };

        // when
        final int exit = ParamHubCli.execute(args);

        // then: the report names the task and the recipe, and the job on the jobs topic is that recipe's
        assertThat(exit).isZero();
        final JsonNode report =
                new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(report.get("task").asText()).isEqualTo("fashion-mlp");
        assertThat(report.get("model").asText()).isEqualTo("mlp");
        assertThat(report.get("optimizer").asText()).isEqualTo("adam");
        assertThat(report.get("learning_rate_schedule").asText()).isEqualTo("cosine");
        final JsonNode bsp = report.get("policies").get(0);
        final JobSpec job = TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics().jobs().name(),
                        new StringDeserializer(),
                        topics().jobs().valueSerde().deserializer())
                .stream()
                .map(ConsumerRecord::value)
                .filter(spec -> spec.getJob().equals(bsp.get("job").asText()))
                .findFirst()
                .orElseThrow();
        assertThat(job.getModel()).isEqualTo("mlp");
        assertThat(job.getOptimizer()).isEqualTo(OptimizerKind.ADAM);
        assertThat(job.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.COSINE);
        assertThat(job.getDecayClocks()).isEqualTo(32);
        // and it learned: one epoch lifts test accuracy far above chance (0.1)
        assertThat(bsp.get("final_metric").asDouble()).isGreaterThan(0.5);
    }

    @Test
    void shouldRefuseAModelWithTheLinearTask(@TempDir final Path out) {
        // when
        final CliRun outcome = CliRun.of(
                "bench",
                "--scenario",
                "homogeneous",
                "--task",
                "linear-rmse",
                "--model",
                "cnn",
                "--out",
                out.toString());

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err())
                .contains("--model cnn trains the Fashion-MNIST task fashion-cnn")
                .contains("linear regression has no model to choose");
    }

    private static JsonNode firstReaching(final JsonNode points, final double target) {
        for (final JsonNode point : points) {
            if (point.get("metric").asDouble() <= target) {
                return point;
            }
        }
        throw new AssertionError("no sample reached " + target);
    }

    private static TopicCatalog topics() {
        return TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
    }

    private static List<IterationTelemetry> telemetry(final String job) {
        return TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics().telemetry().name(),
                        new StringDeserializer(),
                        topics().telemetry().valueSerde().deserializer())
                .stream()
                .map(ConsumerRecord::value)
                .filter(value -> job.equals(value.getJob()))
                .toList();
    }

    private static float[] finalModel(final String job) {
        final ModelView view = new ModelView(job, 4);
        TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics().model().name(),
                        new StringDeserializer(),
                        topics().model().valueSerde().deserializer())
                .forEach(record -> view.offer(record.value()));
        return view.assemble(17);
    }
}
