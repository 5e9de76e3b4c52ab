package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.integration.apps.AppProcess;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.testing.ClusterTestBase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up checks of the apps' runnable jars against a real broker: a ParamHub topic that drifted from what
 * ParamHub creates stops the app with a message naming the topic, the setting, its value, the expected value and
 * the command that fixes it; {@code --accept-topic-drift} starts it anyway; a Streams app asked for
 * {@code at_least_once} refuses to start. Each test has a topic prefix of its own.
 */
@Tag("integration")
class TopicCheckIT extends ClusterTestBase {

    private String[] connection(final String prefix, final String... more) throws Exception {
        final String[] base = {
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--registry-url",
            registry.url(),
            "--topic-prefix",
            prefix,
            "--http-port",
            Integer.toString(AppProcess.freePort())
        };
        final String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void shouldRefuseToStartTheAggregatorWhenJobsIsNotCompacted(@TempDir final Path dir) throws Exception {
        // given: jobs created by hand, with the broker's delete policy
        kafka.createTopic("drift-a.jobs", 1, Map.of("cleanup.policy", "delete"));

        // when
        final AppProcess.Result result = AppProcess.run(
                "paramhub-aggregator",
                Map.of(),
                dir,
                connection("drift-a.", "--state-dir", dir.resolve("state").toString()));

        // then
        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(1);
        assertThat(result.stderr())
                .contains("paramhub-aggregator: ParamHub topics are not as ParamHub needs them")
                .contains("topic drift-a.jobs: cleanup.policy is delete, should be compact")
                .contains(
                        "kafka-configs.sh --bootstrap-server " + kafka.bootstrapServers()
                                + " --alter --entity-type topics --entity-name drift-a.jobs --add-config cleanup.policy=compact")
                .contains("--accept-topic-drift");
    }

    @Test
    void shouldRefuseToStartAWorkerWhenGradientsTakeSmallerRecordsThanKafkasDefault(@TempDir final Path dir)
            throws Exception {
        // given
        kafka.createTopic("drift-w.gradients", 2, Map.of("max.message.bytes", "524288"));

        // when
        final AppProcess.Result result = AppProcess.run(
                "paramhub-worker",
                Map.of(),
                dir,
                connection("drift-w.", "--job", "j", "--index", "0", "--workers", "1"));

        // then
        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(1);
        assertThat(result.stderr())
                .contains("topic drift-w.gradients: max.message.bytes is 524288, should be at least 1048588")
                .contains("--add-config max.message.bytes=1048588");
    }

    @Test
    void shouldRefuseAtLeastOnceUnlessAccepted(@TempDir final Path dir) throws Exception {
        // given
        final String[] args = connection("drift-o.", "-Dprocessing.guarantee=at_least_once");

        // when
        final AppProcess.Result result = AppProcess.run("paramhub-orchestrator", Map.of(), dir, args);

        // then: refused before anything connects, naming the setting and the override
        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        assertThat(result.stderrLines())
                .anySatisfy(line -> assertThat(line)
                        .startsWith("paramhub-orchestrator: processing.guarantee is at_least_once, and ParamHub needs "
                                + "exactly_once_v2")
                        .contains("paramhub.accept.at.least.once=true"));
    }

    @Test
    void shouldStartTheAggregatorOnADriftedTopicWhenTheDriftIsAccepted(@TempDir final Path dir) {
        // given: model deleting what it should keep
        kafka.createTopic("drift-x.model", TopicSetup.DEFAULT_SHARD_PARTITIONS, Map.of("cleanup.policy", "delete"));
        final Properties props =
                KafkaConnection.plain(kafka.bootstrapServers(), registry.url()).streams();
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "drift-x-aggregator");

        // when: both the drift and the short retention accepted (model is also a topic restore reads)
        try (AggregatorRunner aggregator = AggregatorRunner.start(
                props,
                "drift-x.",
                new TopicSetup(
                        true,
                        TopicSetup.DEFAULT_SHARD_PARTITIONS,
                        4,
                        TopicSetup.defaults().replication(),
                        true,
                        true))) {

            // then
            await().alias("the aggregator runs")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> aggregator.streams().state() == KafkaStreams.State.RUNNING);
        }
    }
}
