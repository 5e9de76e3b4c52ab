package io.paramhub.bench.roundcost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.bench.replay.JobReplay;
import io.paramhub.bench.replay.KafkaComparison;
import io.paramhub.bench.replay.KafkaLimits;
import io.paramhub.embedded.DemoJobs;
import io.paramhub.ml.Models;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundCostReportTest {

    /** 2 workers, 100 rounds of the 7,850-parameter softmax model. */
    static ModelCost softmax() {
        final JobSpec spec = DemoJobs.defaults(
                        Models.create("softmax", 784, 10),
                        1,
                        "round-cost-softmax-1",
                        "fashion-mnist",
                        12_800,
                        2,
                        128,
                        1,
                        42)
                .build();
        return new ModelCost(
                spec,
                100,
                "accuracy",
                0.8,
                12.0,
                10.0,
                6.0,
                5.0,
                20.0,
                1.5,
                104,
                List.of(
                        new TopicBytes("paramhub.gradients", 8_000_000, 0, 8_000_000, false),
                        new TopicBytes("paramhub-aggregator-state-changelog", 6_000_000, 100, 6_000_100, true)),
                2.0,
                2,
                true);
    }

    /** 2 workers, 100 rounds of a small MLP that wrote to gradients and to no changelog. */
    static ModelCost smallMlp() {
        final JobSpec spec = DemoJobs.defaults(
                        Models.create("mlp:8", 784, 10),
                        1,
                        "round-cost-mlp-8-1",
                        "fashion-mnist",
                        12_800,
                        2,
                        128,
                        1,
                        42)
                .build();
        return new ModelCost(
                spec,
                100,
                "accuracy",
                0.7,
                14.0,
                12.0,
                8.0,
                7.0,
                30.0,
                2.5,
                101,
                List.of(
                        new TopicBytes("paramhub.gradients", 5_000_000, 0, 5_000_000, false),
                        new TopicBytes("paramhub.membership", 500, 0, 500, false)),
                3.0,
                2,
                true);
    }

    static JobReplay.Outcome replay() {
        final KafkaLimits.Limits limits = new KafkaLimits.Limits(
                1_000,
                400,
                new KafkaLimits.Rate(4_000, 40),
                new KafkaLimits.Rate(8_000, 80),
                new KafkaLimits.Rate(2_000, 20));
        return new JobReplay.Outcome(
                "round-cost-softmax-1",
                50,
                400,
                380_000,
                4.0,
                50,
                0,
                new KafkaComparison(1_000, 400, 100, 5.0, limits));
    }

    @Test
    void shouldDeriveEachModelsFiguresFromWhatWasMeasuredWhenWritingTheReport() {
        // when
        final JsonNode model = RoundCostReport.model(softmax());

        // then: the job
        assertThat(model.get("model").asText()).isEqualTo("softmax");
        assertThat(model.get("parameters").asInt()).isEqualTo(7_850);
        assertThat(model.get("optimizer").asText()).isEqualTo("sgd");
        assertThat(model.get("final_test_accuracy").asDouble()).isEqualTo(0.8);
        // and the times: start-up is what the rounds leave of the wall time; rounds per training second
        assertThat(model.get("startup_seconds").asDouble()).isEqualTo(2.0);
        assertThat(model.get("rounds_per_second").asDouble()).isEqualTo(10.0);
        assertThat(model.get("round_ms_mean").asDouble()).isEqualTo(100.0);
        assertThat(model.get("other_ms_mean").asDouble()).isCloseTo(100.0 - 1.5 - 6.0, within(1e-9));
        assertThat(model.get("wait_ms_p99").asDouble()).isEqualTo(20.0);
        // and the cost of a round
        assertThat(model.get("transactions_per_round").asDouble()).isEqualTo(1.04);
        // a BSP job's workers in one process send their host's sum: one float64 value a parameter
        assertThat(model.get("gradient_payload_bytes_per_round").asLong()).isEqualTo(7_850 * 8);
        assertThat(model.get("bytes_per_round").asDouble()).isEqualTo(140_000.0);
        final JsonNode changelog = model.get("topics").get(1);
        assertThat(changelog.get("topic").asText()).isEqualTo("paramhub-aggregator-state-changelog");
        assertThat(changelog.get("bytes_per_round").asDouble()).isEqualTo(60_000.0);
        assertThat(changelog.get("lower_bound").asBoolean()).isTrue();
        assertThat(changelog.get("size_before").asLong()).isEqualTo(100);
        // and against one JVM: Kafka's training seconds over the in-process seconds
        assertThat(model.get("in_process").get("rounds_per_second").asDouble()).isEqualTo(50.0);
        assertThat(model.get("in_process").get("final_model_equals_kafka").asBoolean())
                .isTrue();
        assertThat(model.get("kafka_over_in_process").asDouble()).isEqualTo(5.0);
    }

    @Test
    void shouldReportTheReplayAsARatioOfThePassThroughAppWhenWritingTheReport() {
        // when
        final JsonNode report = RoundCostReport.toJson(
                settings(),
                List.of(softmax()),
                "softmax",
                replay(),
                null,
                60.0,
                "127.0.0.1:9092",
                true,
                Map.of("round_time", "round-time.png"));

        // then: the run
        assertThat(report.get("scenario").asText()).isEqualTo("round-cost");
        assertThat(report.get("workers").asInt()).isEqualTo(2);
        assertThat(report.get("transactions_source").asText()).contains("commit-total");
        assertThat(report.get("bytes_source").asText())
                .contains("describeLogDirs")
                .contains("1000 ms");
        assertThat(report.get("models")).hasSize(1);
        assertThat(report.get("plots").get("round_time").asText()).isEqualTo("round-time.png");
        // and the replay
        final JsonNode replay = report.get("replay");
        assertThat(replay.get("model").asText()).isEqualTo("softmax");
        assertThat(replay.get("clocks").asLong()).isEqualTo(50);
        assertThat(replay.get("final_model_equals_in_process").asBoolean()).isTrue();
        assertThat(replay.get("kafka_limits").get("record_size_bytes").asInt()).isEqualTo(1_000);
        assertThat(replay.get("kafka_limits")
                        .get("streams_pass_through_eos")
                        .get("aggregator_ratio_mb")
                        .asDouble())
                .isEqualTo(0.25);
        assertThat(replay.get("kafka_limits")
                        .get("producer_performance")
                        .get("aggregator_ratio_records")
                        .asDouble())
                .isEqualTo(0.025);
        assertThat(replay.get("aggregator_mb_over_pass_through_mb").asDouble()).isEqualTo(0.25);
    }

    @Test
    void shouldSayWhyWhenTheReplayWasSkipped() {
        // when: retention had dropped the first clocks' gradients
        final JsonNode report = RoundCostReport.toJson(
                settings(),
                List.of(softmax()),
                "softmax",
                null,
                "paramhub.gradients holds 3 gradients of the first 50 clocks",
                60.0,
                "127.0.0.1:9092",
                true,
                Map.of());

        // then: the models are there, the replay says why it is not
        assertThat(report.get("models")).hasSize(1);
        assertThat(report.get("replay").get("model").asText()).isEqualTo("softmax");
        assertThat(report.get("replay").get("skipped").asText()).contains("holds 3 gradients");
        assertThat(report.get("replay").has("kafka_limits")).isFalse();
    }

    private static RoundCostSettings settings() {
        return new RoundCostSettings(
                List.of(Models.create("softmax", 784, 10)), null, "fashion-mnist", 2, 128, 1, 42, 1, 50, "paramhub.");
    }
}
