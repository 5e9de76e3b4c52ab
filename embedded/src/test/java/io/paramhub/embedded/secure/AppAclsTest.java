package io.paramhub.embedded.secure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.aggregator.AggregatorTopology;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

class AppAclsTest {

    private static final String PREFIX = TopicCatalog.DEFAULT_PREFIX;
    private static final AclScope SCOPE = AclScope.defaults(PREFIX, List.of("data."));
    private static final TopicCatalog TOPICS = TopicCatalog.create(PREFIX, SerdeFactory.forRegistry("mock://acls"));

    @Test
    void shouldLetEachTopicBeWrittenOnlyByItsOwnersWhenRolesAreComputed() {
        // given
        final Map<String, Set<Role>> owners = Map.ofEntries(
                Map.entry("jobs", EnumSet.of(Role.SUBMITTER)),
                Map.entry("gradients", EnumSet.of(Role.WORKER)),
                Map.entry("model", EnumSet.of(Role.AGGREGATOR)),
                Map.entry("telemetry", EnumSet.of(Role.WORKER)),
                Map.entry("commands", EnumSet.of(Role.ORCHESTRATOR)),
                Map.entry("membership", EnumSet.of(Role.WORKER)),
                Map.entry("dead-letters", EnumSet.of(Role.AGGREGATOR, Role.ORCHESTRATOR, Role.WORKER)),
                Map.entry("shard-jobs", EnumSet.of(Role.AGGREGATOR)),
                Map.entry("shard-membership", EnumSet.of(Role.AGGREGATOR)),
                Map.entry("shard-commands", EnumSet.of(Role.AGGREGATOR)),
                Map.entry("activations", EnumSet.of(Role.WORKER)),
                Map.entry("activation-gradients", EnumSet.of(Role.WORKER)),
                Map.entry("server-telemetry", EnumSet.of(Role.AGGREGATOR)),
                Map.entry("placements", EnumSet.of(Role.ORCHESTRATOR)));

        // when
        final Map<String, Set<Role>> writers = TOPICS.all().stream()
                .collect(Collectors.toMap(
                        TOPICS::role,
                        topic -> Arrays.stream(Role.values())
                                .filter(role ->
                                        allows(acls(role), ResourceType.TOPIC, topic.name(), AclOperation.WRITE))
                                .collect(Collectors.toSet())));

        // then
        assertThat(writers).isEqualTo(owners);
    }

    @Test
    void shouldGrantNoCreateAndNoPrefixedReadOrWriteOnParamHubTopicsWhenAnyRole() {
        for (final Role role : Role.values()) {
            // when
            final List<AclBinding> acls = acls(role);

            // then
            assertThat(acls)
                    .as("%s", role)
                    .noneMatch(acl -> acl.entry().operation() == AclOperation.CREATE)
                    .noneMatch(acl -> acl.pattern().resourceType() == ResourceType.TOPIC
                            && acl.pattern().patternType() == PatternType.PREFIXED
                            && PREFIX.startsWith(acl.pattern()
                                    .name()
                                    .substring(0, Math.min(acl.pattern().name().length(), PREFIX.length())))
                            && acl.entry().operation() != AclOperation.DESCRIBE
                            && acl.entry().operation() != AclOperation.DESCRIBE_CONFIGS);
        }
    }

    @Test
    void shouldWriteNothingAndHoldNoTransactionalIdWhenReader() {
        // when
        final List<AclBinding> acls = acls(Role.READER);

        // then
        assertThat(acls)
                .extracting(acl -> acl.entry().operation())
                .containsOnly(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS);
        assertThat(acls).noneMatch(acl -> acl.pattern().resourceType() != ResourceType.TOPIC);
        assertThat(allows(acls, ResourceType.TOPIC, PREFIX + "model", AclOperation.READ))
                .isTrue();
    }

    @Test
    void shouldKeepEachAppsTransactionalIdsAndGroupsToItselfWhenApplicationIdsAreDefault() {
        // given
        final String aggregatorTransaction = "paramhub-aggregator-0b5e7c1a-2d4f-4b8e-9c61-3f2a9d7e8b10-1";
        final String orchestratorTransaction = "paramhub-orchestrator-6f1d2c3b-1a2b-4c3d-8e9f-0a1b2c3d4e5f-1";
        final String workerTransaction = "paramhub-worker.job-1.worker-000";

        // when / then
        assertThat(allows(
                        acls(Role.AGGREGATOR),
                        ResourceType.TRANSACTIONAL_ID,
                        aggregatorTransaction,
                        AclOperation.WRITE))
                .isTrue();
        assertThat(allows(
                        acls(Role.ORCHESTRATOR),
                        ResourceType.TRANSACTIONAL_ID,
                        aggregatorTransaction,
                        AclOperation.WRITE))
                .isFalse();
        assertThat(allows(acls(Role.WORKER), ResourceType.TRANSACTIONAL_ID, aggregatorTransaction, AclOperation.WRITE))
                .isFalse();
        assertThat(allows(
                        acls(Role.AGGREGATOR),
                        ResourceType.TRANSACTIONAL_ID,
                        orchestratorTransaction,
                        AclOperation.WRITE))
                .isFalse();
        assertThat(allows(acls(Role.WORKER), ResourceType.TRANSACTIONAL_ID, workerTransaction, AclOperation.WRITE))
                .isTrue();
        assertThat(allows(acls(Role.ORCHESTRATOR), ResourceType.GROUP, "paramhub-aggregator", AclOperation.READ))
                .isFalse();
        assertThat(allows(acls(Role.AGGREGATOR), ResourceType.GROUP, "paramhub-aggregator", AclOperation.READ))
                .isTrue();
        assertThat(allows(
                        acls(Role.ORCHESTRATOR),
                        ResourceType.GROUP,
                        "paramhub-orchestrator-observer",
                        AclOperation.READ))
                .isTrue();
        assertThat(allows(acls(Role.WORKER), ResourceType.GROUP, "paramhub-worker.job-1.worker-000", AclOperation.READ))
                .isTrue();
    }

    @Test
    void shouldLetOnlyWorkersReadDataTopicsWhenUnderTheDataPrefix() {
        // when / then
        assertThat(allows(acls(Role.WORKER), ResourceType.TOPIC, "data.readings", AclOperation.READ))
                .isTrue();
        assertThat(allows(acls(Role.WORKER), ResourceType.TOPIC, "data.readings", AclOperation.WRITE))
                .isFalse();
        assertThat(allows(acls(Role.AGGREGATOR), ResourceType.TOPIC, "data.readings", AclOperation.READ))
                .isFalse();
        assertThat(allows(acls(Role.WORKER), ResourceType.TOPIC, "other.readings", AclOperation.READ))
                .isFalse();
    }

    @Test
    void shouldCoverEveryTopicItsTopologyReadsAndWritesWhenStreamsApp() {
        // given
        final Topology aggregator = AggregatorTopology.build(TOPICS, SerdeFactory.forRegistry("mock://acls"));
        final Topology orchestrator = OrchestratorTopology.build(
                TOPICS, SerdeFactory.forRegistry("mock://acls"), OrchestratorSettings.defaults());

        // when
        final Set<String> aggregatorReads = sources(aggregator);
        final Set<String> orchestratorReads = sources(orchestrator);

        // then
        assertThat(aggregatorReads)
                .isNotEmpty()
                .allMatch(topic -> allows(acls(Role.AGGREGATOR), ResourceType.TOPIC, topic, AclOperation.READ));
        assertThat(sinks(aggregator))
                .isNotEmpty()
                .allMatch(topic -> allows(acls(Role.AGGREGATOR), ResourceType.TOPIC, topic, AclOperation.WRITE));
        assertThat(orchestratorReads)
                .isNotEmpty()
                .allMatch(topic -> allows(acls(Role.ORCHESTRATOR), ResourceType.TOPIC, topic, AclOperation.READ));
        assertThat(sinks(orchestrator))
                .isNotEmpty()
                .allMatch(topic -> allows(acls(Role.ORCHESTRATOR), ResourceType.TOPIC, topic, AclOperation.WRITE));
        // and what the aggregator's restore and placement readers read besides
        for (final Topic<String, ?> topic : List.of(TOPICS.model(), TOPICS.placements())) {
            assertThat(allows(acls(Role.AGGREGATOR), ResourceType.TOPIC, topic.name(), AclOperation.READ))
                    .isTrue();
        }
    }

    @Test
    void shouldRefuseScopeWhenOneApplicationIdCoversTheOthers() {
        // when / then
        assertThatThrownBy(() -> new AclScope(PREFIX, "paramhub", "paramhub-orchestrator", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overlap");
        assertThatThrownBy(() -> new AclScope(PREFIX, "paramhub-aggregator", "paramhub-aggregator-b", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AclScope(PREFIX, "paramhub-aggregator", "paramhub-worker.x", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new AclScope(PREFIX, "paramhub-agg", "paramhub-aggregator", List.of()).aggregatorId())
                .isEqualTo("paramhub-agg");
    }

    @Test
    void shouldRefuseScopeWhenDataPrefixCoversParamHubTopics() {
        // when / then
        assertThatThrownBy(() -> AclScope.defaults(PREFIX, List.of("paramhub.")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("covers ParamHub's topics");
        assertThatThrownBy(() -> AclScope.defaults(PREFIX, List.of("paramhub.mo")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AclScope.defaults(PREFIX, List.of("paramhub.data.")).dataTopicPrefixes())
                .containsExactly("paramhub.data.");
    }

    private static List<AclBinding> acls(final Role role) {
        return AppAcls.of(role, "User:" + role.user(), SCOPE);
    }

    /** Whether an ALLOW among {@code acls} grants {@code operation} on resource {@code name}, as the authorizer would. */
    private static boolean allows(
            final List<AclBinding> acls, final ResourceType type, final String name, final AclOperation operation) {
        return acls.stream()
                .anyMatch(acl -> acl.pattern().resourceType() == type
                        && (acl.entry().operation() == operation || acl.entry().operation() == AclOperation.ALL)
                        && (acl.pattern().patternType() == PatternType.LITERAL
                                ? acl.pattern().name().equals(name)
                                : name.startsWith(acl.pattern().name())));
    }

    /** The topics {@code topology} reads, its own repartition topics left out (they are internal). */
    private static Set<String> sources(final Topology topology) {
        final Set<String> topics = new HashSet<>();
        final TopologyDescription description = topology.describe();
        description
                .subtopologies()
                .forEach(sub -> sub.nodes().forEach(node -> {
                    if (node instanceof TopologyDescription.Source source) {
                        topics.addAll(source.topicSet());
                    }
                }));
        description.globalStores().forEach(store -> topics.addAll(store.source().topicSet()));
        topics.removeIf(topic -> !topic.startsWith(PREFIX));
        return topics;
    }

    private static Set<String> sinks(final Topology topology) {
        final Set<String> topics = new HashSet<>();
        topology.describe()
                .subtopologies()
                .forEach(sub -> sub.nodes().forEach(node -> {
                    if (node instanceof TopologyDescription.Sink sink) {
                        topics.add(sink.topic());
                    }
                }));
        topics.removeIf(topic -> !topic.startsWith(PREFIX));
        return topics;
    }
}
