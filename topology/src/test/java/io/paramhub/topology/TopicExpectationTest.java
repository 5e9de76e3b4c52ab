package io.paramhub.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which departures of an existing topic from what ParamHub creates {@link TopicExpectation} reports, and how. */
class TopicExpectationTest {

    private static final TopicCatalog TOPICS =
            TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry("http://unused:1"));
    private static final String BOOTSTRAP = "kafka:9092";
    private static final TopicReplication THREE_TWO = TopicReplication.of((short) 3, 2);

    private static TopicExpectation expectation(final Topic<String, ?> topic, final TopicReplication replication) {
        return TOPICS.expectations(List.of(topic), replication).get(0);
    }

    /** The topic as the broker describes it: its own configs over the broker's defaults (Kafka's, here). */
    private static TopicExpectation.Observed observed(final int replicas, final Map<String, String> configs) {
        final Map<String, String> all = new HashMap<>(Map.of(
                "cleanup.policy", "delete",
                "retention.ms", "604800000",
                "retention.bytes", "-1",
                "min.insync.replicas", "1",
                "max.message.bytes", "1048588"));
        all.putAll(configs);
        return new TopicExpectation.Observed(replicas, all);
    }

    private static List<TopicDrift> drifts(
            final Topic<String, ?> topic, final int replicas, final int brokers, final Map<String, String> configs) {
        return expectation(topic, TopicReplication.BROKER_DEFAULTS)
                .drifts(observed(replicas, configs), brokers, BOOTSTRAP);
    }

    @Test
    void shouldFindNothingWhenEveryTopicIsAsParamHubCreatesItOnThreeBrokers() {
        // given: every topic created with ParamHub's layout, 3 replicas and min.insync.replicas 2
        final List<TopicExpectation> expectations = TOPICS.expectations(TOPICS.all(), THREE_TWO);

        // when
        final List<TopicDrift> drifts = expectations.stream()
                .flatMap(expected ->
                        expected.drifts(observed(3, expected.layout().configs(THREE_TWO)), 3, BOOTSTRAP).stream())
                .toList();

        // then
        assertThat(drifts).isEmpty();
    }

    @Test
    void shouldAcceptReplicationOneWhenTheClusterHasOneBroker() {
        // given: every topic created with the broker's defaults on a single broker (paramhub up)
        final List<TopicExpectation> expectations = TOPICS.expectations(TOPICS.all(), TopicReplication.BROKER_DEFAULTS);

        // when
        final List<TopicDrift> drifts = expectations.stream()
                .flatMap(expected -> expected
                        .drifts(observed(1, expected.layout().configs(TopicReplication.BROKER_DEFAULTS)), 1, BOOTSTRAP)
                        .stream())
                .toList();

        // then
        assertThat(drifts).isEmpty();
    }

    @Test
    void shouldRefuseNamingTopicSettingValueAndFixWhenACompactedTopicDeletes() {
        // given: jobs left to the broker's default policy
        final Map<String, String> configs = Map.of("max.message.bytes", "68157440");

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.jobs(), 1, 1, configs);

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isTrue();
            assertThat(drift.message())
                    .startsWith("topic paramhub.jobs: cleanup.policy is delete, should be compact")
                    .contains("kafka-configs.sh --bootstrap-server kafka:9092 --alter --entity-type topics "
                            + "--entity-name paramhub.jobs --add-config cleanup.policy=compact");
        });
    }

    @Test
    void shouldRefuseACompactedTopicWhoseRetentionDeletesToo() {
        // given
        final Map<String, String> configs = Map.of("cleanup.policy", "compact,delete", "retention.ms", "3600000");

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.membership(), 1, 1, configs);

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isTrue();
            assertThat(drift.setting()).isEqualTo("cleanup.policy");
            assertThat(drift.actual()).contains("retention.ms 3600000");
        });
    }

    @Test
    void shouldAcceptACompactedTopicThatDeletesNothingByTimeOrSize() {
        // given
        final Map<String, String> configs =
                Map.of("cleanup.policy", "compact,delete", "retention.ms", "-1", "retention.bytes", "-1");

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.model(), 1, 1, configs);

        // then
        assertThat(drifts).isEmpty();
    }

    @Test
    void shouldRefuseGradientsThatCompactButOnlyWarnForTelemetry() {
        // given
        final Map<String, String> compacted = Map.of("cleanup.policy", "compact");

        // when
        final List<TopicDrift> gradients = drifts(TOPICS.gradients(), 1, 1, compacted);
        final List<TopicDrift> telemetry = drifts(TOPICS.telemetry(), 1, 1, compacted);

        // then
        assertThat(gradients).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isTrue();
            assertThat(drift.fix()).endsWith("--add-config cleanup.policy=delete");
        });
        assertThat(telemetry)
                .singleElement()
                .satisfies(drift -> assertThat(drift.fatal()).isFalse());
    }

    @Test
    void shouldRefuseReplicationOneWhenTheClusterHasThreeBrokers() {
        // given: replication 1, as a topic created by hand with the defaults of a one-broker habit
        final int brokers = 3;

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.gradients(), 1, brokers, Map.of());

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isTrue();
            assertThat(drift.message())
                    .contains("replication factor is 1, should be at least 2 on a cluster of 3 brokers")
                    .contains("kafka-reassign-partitions.sh --bootstrap-server kafka:9092");
        });
    }

    @Test
    void shouldWarnWhenATopicHasFewerReplicasThanAskedForButSurvivesABroker() {
        // given
        final TopicExpectation gradients = expectation(TOPICS.gradients(), THREE_TWO);

        // when
        final List<TopicDrift> drifts = gradients.drifts(observed(2, Map.of("min.insync.replicas", "2")), 3, BOOTSTRAP);

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isFalse();
            assertThat(drift.message()).contains("replication factor is 2, should be 3");
        });
    }

    @Test
    void shouldRefuseMinInSyncReplicasAboveTheReplicationFactor() {
        // given
        final Map<String, String> configs = Map.of("min.insync.replicas", "2");

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.gradients(), 1, 1, configs);

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isTrue();
            assertThat(drift.message())
                    .contains("min.insync.replicas is 2, should be at most the replication factor, 1")
                    .endsWith("--add-config min.insync.replicas=1");
        });
    }

    @Test
    void shouldWarnWhenAReplicatedTopicAcknowledgesWritesOnOneReplica() {
        // given: Kafka's default min.insync.replicas, 1
        final int replicas = 3;

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.model(), replicas, 3, Map.of("cleanup.policy", "compact"));

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isFalse();
            assertThat(drift.message()).contains("min.insync.replicas is 1, should be 2");
        });
    }

    @Test
    void shouldRefuseATopicThatTakesLessThanKafkasDefaultRecordSize() {
        // given
        final Map<String, String> configs = Map.of("max.message.bytes", "524288");

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.gradients(), 1, 1, configs);

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isTrue();
            assertThat(drift.message())
                    .contains("max.message.bytes is 524288, should be at least 1048588")
                    .endsWith("--add-config max.message.bytes=1048588");
        });
    }

    @Test
    void shouldOnlyWarnWhenJobsTakeLessThanAnExternalModelsSpec() {
        // given: jobs compacted, with the broker's record size
        final Map<String, String> configs = Map.of("cleanup.policy", "compact");

        // when
        final List<TopicDrift> drifts = drifts(TOPICS.jobs(), 1, 1, configs);

        // then
        assertThat(drifts).singleElement().satisfies(drift -> {
            assertThat(drift.fatal()).isFalse();
            assertThat(drift.expected()).isEqualTo("at least " + TopicCatalog.JOBS_MAX_MESSAGE_BYTES);
        });
    }
}
