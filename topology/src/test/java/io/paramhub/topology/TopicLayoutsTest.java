package io.paramhub.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The layouts {@link TopicCatalog} gives {@link TopicProvisioner}: cleanup, retention and replication per topic. */
class TopicLayoutsTest {

    private static final TopicCatalog TOPICS =
            TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry("http://unused:1"));

    private static Map<String, TopicLayout> byName(final List<TopicLayout> layouts) {
        return layouts.stream().collect(Collectors.toMap(TopicLayout::name, Function.identity()));
    }

    @Test
    void shouldKeepGradientsADayAndAGibibytePerPartitionByDefault() {
        // given
        final TopicLayout gradients = byName(TOPICS.layouts(8, 4)).get("paramhub.gradients");

        // when
        final Map<String, String> configs = gradients.configs(TopicReplication.BROKER_DEFAULTS);

        // then
        assertThat(configs)
                .containsEntry("cleanup.policy", "delete")
                .containsEntry("retention.ms", "86400000")
                .containsEntry("retention.bytes", "1073741824")
                .doesNotContainKey("min.insync.replicas");
    }

    @Test
    void shouldTakeAnExternalModelsVersionZeroOnJobsOnly() {
        // given
        final Map<String, TopicLayout> layouts = byName(TOPICS.layouts(8, 4));

        // when
        final Map<String, String> jobs = layouts.get("paramhub.jobs").configs(TopicReplication.BROKER_DEFAULTS);
        final Map<String, String> model = layouts.get("paramhub.model").configs(TopicReplication.BROKER_DEFAULTS);

        // then
        assertThat(jobs).containsEntry("max.message.bytes", Integer.toString(TopicCatalog.JOBS_MAX_MESSAGE_BYTES));
        assertThat(model).doesNotContainKey("max.message.bytes");
    }

    @Test
    void shouldBoundTelemetryAndDeadLettersInTime() {
        // given
        final Map<String, TopicLayout> layouts = byName(TOPICS.layouts(8, 4));

        // when
        final Map<String, String> telemetry =
                layouts.get("paramhub.telemetry").configs(TopicReplication.BROKER_DEFAULTS);
        final Map<String, String> deadLetters =
                layouts.get("paramhub.dead-letters").configs(TopicReplication.BROKER_DEFAULTS);

        // then
        assertThat(telemetry).containsEntry("retention.ms", Long.toString(3 * TopicRetention.DAY_MS));
        assertThat(deadLetters).containsEntry("retention.ms", Long.toString(7 * TopicRetention.DAY_MS));
    }

    @Test
    void shouldCompactModelJobsAndMembershipWithoutRetention() {
        // given
        final Map<String, TopicLayout> layouts = byName(TOPICS.layouts(8, 4));

        // when / then
        for (final String name :
                List.of("paramhub.model", "paramhub.jobs", "paramhub.membership", "paramhub.commands")) {
            assertThat(layouts.get(name).configs(TopicReplication.BROKER_DEFAULTS))
                    .as(name)
                    .containsEntry("cleanup.policy", "compact")
                    .doesNotContainKeys("retention.ms", "retention.bytes");
        }
    }

    @Test
    void shouldSetMinInSyncReplicasTwoWhenReplicated() {
        // given
        final TopicReplication replication = TopicReplication.of((short) 3, -1);

        // when
        final Map<String, String> configs =
                byName(TOPICS.layouts(8, 4)).get("paramhub.model").configs(replication);

        // then
        assertThat(replication.minInSyncReplicas()).isEqualTo(2);
        assertThat(configs).containsEntry("min.insync.replicas", "2");
    }

    @Test
    void shouldLeaveMinInSyncReplicasToTheBrokerWhenNotReplicated() {
        // when
        final TopicReplication replication = TopicReplication.of((short) 1, -1);

        // then
        assertThat(replication.brokerMinInSyncReplicas()).isTrue();
    }

    @Test
    void shouldTakeTheGivenRetentionOfATopic() {
        // given
        final TopicRetentions retentions = TopicRetentions.from(Map.of(
                "paramhub.topic.gradients.retention.ms", "7200000",
                "paramhub.topic.dead-letters.retention.bytes", "-1",
                "bootstrap.servers", "localhost:9092"));

        // when
        final Map<String, TopicLayout> layouts = byName(TOPICS.layouts(8, 4, retentions));

        // then
        assertThat(layouts.get("paramhub.gradients").retention())
                .isEqualTo(new TopicRetention(7_200_000, TopicRetention.GIB));
        assertThat(layouts.get("paramhub.dead-letters").retention())
                .isEqualTo(new TopicRetention(7 * TopicRetention.DAY_MS, -1));
    }
}
