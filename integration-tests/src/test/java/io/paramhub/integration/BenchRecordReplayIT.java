package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.JobSpec;
import io.paramhub.cli.ParamHubCli;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelView;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paramhub record} then {@code paramhub replay}: a recorded BSP run replayed into a fresh aggregator. */
@Tag("integration")
class BenchRecordReplayIT extends ClusterTestBase {

    @Test
    void shouldReproduceTheRecordedModelBitForBitWhenABspRunIsReplayedIntoAFreshAggregator(@TempDir final Path dir)
            throws InterruptedException, IOException {
        // given: a BSP run of 3 workers, 2 epochs, trained and recorded
        final JobSpec spec = LinearJobs.job("recorded-bsp", 3, 4, 2);
        final TrainingRun.Result trained = new TrainingRun(
                        kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, dir.resolve("state"))
                .run(spec, LinearJobs.problem().data(), RunListener.NONE);
        final Path recording = dir.resolve("recording");
        assertThat(ParamHubCli.execute(
                        "record",
                        "--job",
                        "recorded-bsp",
                        "--out",
                        recording.toString(),
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--registry-url",
                        registry.url()))
                .isZero();

        // when
        final int exit = ParamHubCli.execute(
                "replay",
                "--in",
                recording.toString(),
                "--target",
                "aggregator",
                "--topic-prefix",
                "replayed.",
                "--report",
                dir.resolve("replay.json").toString(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url());

        // then: the fresh aggregator's final model, read from its own model topic, is the recorded one
        assertThat(exit).isZero();
        final float[] replayed = finalModel("replayed.", spec);
        assertThat(bits(replayed)).isEqualTo(bits(trained.finalParameters()));
        assertThat(bits(replayed)).isEqualTo(bits(finalModel(TopicCatalog.DEFAULT_PREFIX, spec)));
        final JsonNode report =
                new ObjectMapper().readTree(dir.resolve("replay.json").toFile());
        assertThat(report.get("bit_identical").asBoolean()).isTrue();
        assertThat(report.get("replayed_final_version").asLong()).isEqualTo(2 * 32);
        // the three workers of one process sent their host's sum: one record a shard a clock
        assertThat(report.get("gradients").asLong()).isEqualTo(4L * 2 * 32);
        assertThat(report.get("gradient_mb_per_s").asDouble()).isPositive();
        assertThat(report.get("update_latency_count").asInt()).isEqualTo(4 * 2 * 32);
        assertThat(report.get("update_latency_p99_ms").asDouble())
                .isGreaterThanOrEqualTo(report.get("update_latency_p50_ms").asDouble());
    }

    private static float[] finalModel(final String prefix, final JobSpec spec) {
        final TopicCatalog topics = TopicCatalog.create(prefix, SerdeFactory.forRegistry(registry.url()));
        final ModelView view = new ModelView(spec.getJob(), spec.getShards());
        TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.model().name(),
                        new StringDeserializer(),
                        topics.model().valueSerde().deserializer())
                .forEach(record -> view.offer(record.value()));
        return view.assemble(spec.getParameters());
    }

    private static int[] bits(final float[] values) {
        final int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Float.floatToRawIntBits(values[i]);
        }
        return bits;
    }
}
