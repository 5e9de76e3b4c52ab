package io.paramhub.topology.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.aggregator.AggregatorInstance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignmentUtils;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

class PlacementTaskAssignorTest {

    private static final ProcessId FIRST = new ProcessId(new UUID(0, 1));
    private static final ProcessId SECOND = new ProcessId(new UUID(0, 2));

    /** The aggregator's tasks with 4 shard partitions: the control fan-out 0_0 and shard tasks 1_0 to 1_3. */
    private static final Set<TaskId> TASKS =
            Set.of(new TaskId(0, 0), new TaskId(1, 0), new TaskId(1, 1), new TaskId(1, 2), new TaskId(1, 3));

    @Test
    void shouldPutEveryTaskOfAPartitionOnTheInstanceThePlacementNames() {
        // given
        final Map<ProcessId, KafkaStreamsState> clients =
                Map.of(FIRST, client(FIRST, "fast", Set.of()), SECOND, client(SECOND, "slow", Set.of()));
        final ShardPlacement placement = placement(Map.of(0, "slow", 1, "fast", 2, "fast", 3, "fast"));

        // when
        final TaskAssignor.TaskAssignment assignment = assign(clients, Optional.of(placement), "0");

        // then
        assertThat(active(assignment, SECOND)).containsExactlyInAnyOrder(new TaskId(0, 0), new TaskId(1, 0));
        assertThat(active(assignment, FIRST))
                .containsExactlyInAnyOrder(new TaskId(1, 1), new TaskId(1, 2), new TaskId(1, 3));
    }

    @Test
    void shouldPlaceBalancedAndStickyBeforeAnyPlacement() {
        // given the first instance held everything, the second just joined
        final Map<ProcessId, KafkaStreamsState> clients =
                Map.of(FIRST, client(FIRST, "a", TASKS), SECOND, client(SECOND, "b", Set.of()));

        // when
        final TaskAssignor.TaskAssignment assignment = assign(clients, Optional.empty(), "0");

        // then two partitions each, the first keeping the first two it held, tasks of a partition together
        assertThat(partitions(active(assignment, FIRST))).containsExactly(0, 1);
        assertThat(partitions(active(assignment, SECOND))).containsExactly(2, 3);
        assertThat(active(assignment, FIRST)).contains(new TaskId(0, 0), new TaskId(1, 0));
    }

    @Test
    void shouldFallBackForPartitionsOfAnInstanceThatIsGone() {
        // given the placement names an instance no longer in the group for partitions 2 and 3
        final Map<ProcessId, KafkaStreamsState> clients =
                Map.of(FIRST, client(FIRST, "a", Set.of()), SECOND, client(SECOND, "b", Set.of()));
        final ShardPlacement placement = placement(Map.of(0, "a", 1, "a", 2, "gone", 3, "gone"));

        // when
        final TaskAssignor.TaskAssignment assignment = assign(clients, Optional.of(placement), "0");

        // then the named partitions are where named, the others balanced on the instance with room
        assertThat(partitions(active(assignment, FIRST))).containsExactly(0, 1);
        assertThat(partitions(active(assignment, SECOND))).containsExactly(2, 3);
    }

    @Test
    void shouldAssignEveryTaskOnceSoThatKafkaStreamsAcceptsTheAssignment() {
        // given
        final Map<ProcessId, KafkaStreamsState> clients =
                Map.of(FIRST, client(FIRST, "a", Set.of()), SECOND, client(SECOND, "b", TASKS));
        final ShardPlacement placement = placement(Map.of(1, "a"));
        final ApplicationState state = state(clients);

        // when
        final TaskAssignor.TaskAssignment assignment =
                assignor(Optional.of(placement), "0").assign(state);

        // then
        assertThat(TaskAssignmentUtils.validateTaskAssignment(state, assignment))
                .isEqualTo(TaskAssignor.AssignmentError.NONE);
    }

    @Test
    void shouldAskOneClientForAFollowUpRebalanceSoThatALaterPlacementTakesEffect() {
        // given
        final Map<ProcessId, KafkaStreamsState> clients =
                Map.of(FIRST, client(FIRST, "a", Set.of()), SECOND, client(SECOND, "b", Set.of()));

        // when
        final TaskAssignor.TaskAssignment assignment = assign(clients, Optional.empty(), "1500");

        // then
        final List<Instant> deadlines = assignment.assignment().stream()
                .map(KafkaStreamsAssignment::followupRebalanceDeadline)
                .flatMap(Optional::stream)
                .toList();
        assertThat(deadlines).hasSize(1);
        assertThat(deadlines.get(0)).isAfter(Instant.now().plusMillis(1000));
    }

    @Test
    void shouldAskForNoFollowUpWhenTheCheckIntervalIsZero() {
        // given
        final Map<ProcessId, KafkaStreamsState> clients = Map.of(FIRST, client(FIRST, "a", Set.of()));

        // when
        final TaskAssignor.TaskAssignment assignment = assign(clients, Optional.empty(), "0");

        // then
        assertThat(assignment.assignment())
                .allSatisfy(a -> assertThat(a.followupRebalanceDeadline()).isEmpty());
    }

    @Test
    void shouldAskForNoFollowUpByDefault() {
        // given an assignor configured without a check interval
        final Map<ProcessId, KafkaStreamsState> clients =
                Map.of(FIRST, client(FIRST, "a", Set.of()), SECOND, client(SECOND, "b", Set.of()));
        final PlacementTaskAssignor assignor = new PlacementTaskAssignor();
        assignor.configure(Map.of(PlacementTaskAssignor.SOURCE_CONFIG, (PlacementSource) Optional::empty));

        // when
        final TaskAssignor.TaskAssignment assignment = assignor.assign(state(clients));

        // then no rebalance is asked for: the next comes with a new placement
        assertThat(assignment.assignment())
                .allSatisfy(a -> assertThat(a.followupRebalanceDeadline()).isEmpty());
    }

    @Test
    void shouldRefuseASourceThatIsNotOne() {
        // given
        final PlacementTaskAssignor assignor = new PlacementTaskAssignor();

        // when / then
        assertThatThrownBy(() -> assignor.configure(Map.of(PlacementTaskAssignor.SOURCE_CONFIG, "nope")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(PlacementTaskAssignor.SOURCE_CONFIG);
        assertThatThrownBy(() -> assignor.configure(Map.of(PlacementTaskAssignor.CHECK_INTERVAL_CONFIG, "-1")))
                .isInstanceOf(ConfigException.class);
    }

    private static TaskAssignor.TaskAssignment assign(
            final Map<ProcessId, KafkaStreamsState> clients,
            final Optional<ShardPlacement> placement,
            final String checkMs) {
        return assignor(placement, checkMs).assign(state(clients));
    }

    private static PlacementTaskAssignor assignor(final Optional<ShardPlacement> placement, final String checkMs) {
        final PlacementTaskAssignor assignor = new PlacementTaskAssignor();
        final Map<String, Object> configs = new HashMap<>();
        configs.put(PlacementTaskAssignor.SOURCE_CONFIG, (PlacementSource) () -> placement);
        configs.put(PlacementTaskAssignor.CHECK_INTERVAL_CONFIG, checkMs);
        assignor.configure(configs);
        return assignor;
    }

    private static SortedSet<TaskId> active(final TaskAssignor.TaskAssignment assignment, final ProcessId process) {
        return assignment.assignment().stream()
                .filter(a -> a.processId().equals(process))
                .flatMap(a -> a.tasks().keySet().stream())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static SortedSet<Integer> partitions(final Set<TaskId> tasks) {
        return tasks.stream().map(TaskId::partition).collect(Collectors.toCollection(TreeSet::new));
    }

    private static ShardPlacement placement(final Map<Integer, String> owners) {
        final List<PartitionOwner> list = new ArrayList<>();
        new TreeMap<>(owners).forEach((partition, instance) -> list.add(new PartitionOwner(partition, instance)));
        return ShardPlacement.newBuilder()
                .setVersion(1)
                .setOwners(list)
                .setMsPerShardRound(Map.of())
                .setCurrentRoundMs(0)
                .setPredictedRoundMs(0)
                .setReason("test")
                .setIssuedAt(Instant.EPOCH)
                .build();
    }

    private static ApplicationState state(final Map<ProcessId, KafkaStreamsState> clients) {
        return new ApplicationState() {
            @Override
            public Map<ProcessId, KafkaStreamsState> kafkaStreamsStates(final boolean computeTaskLags) {
                return clients;
            }

            @Override
            public AssignmentConfigs assignmentConfigs() {
                return new AssignmentConfigs(0L, 2, 0, 600_000L, List.of());
            }

            @Override
            public Map<TaskId, TaskInfo> allTasks() {
                final Map<TaskId, TaskInfo> tasks = new HashMap<>();
                TASKS.forEach(id -> tasks.put(id, new TaskInfo() {
                    @Override
                    public TaskId id() {
                        return id;
                    }

                    @Override
                    public boolean isStateful() {
                        return true;
                    }

                    @Override
                    public Set<String> stateStoreNames() {
                        return Set.of();
                    }

                    @Override
                    public Set<TaskTopicPartition> topicPartitions() {
                        return Set.of();
                    }
                }));
                return tasks;
            }
        };
    }

    private static KafkaStreamsState client(final ProcessId process, final String instance, final Set<TaskId> held) {
        return new KafkaStreamsState() {
            @Override
            public ProcessId processId() {
                return process;
            }

            @Override
            public int numProcessingThreads() {
                return 1;
            }

            @Override
            public SortedSet<String> consumerClientIds() {
                return new TreeSet<>(Set.of(process + "-consumer"));
            }

            @Override
            public SortedSet<TaskId> previousActiveTasks() {
                return new TreeSet<>(held);
            }

            @Override
            public SortedSet<TaskId> previousStandbyTasks() {
                return new TreeSet<>();
            }

            @Override
            public long lagFor(final TaskId task) {
                return 0;
            }

            @Override
            public SortedSet<TaskId> prevTasksByLag(final String consumerClientId) {
                return new TreeSet<>();
            }

            @Override
            public Map<TaskId, Long> statefulTasksToLagSums() {
                return Map.of();
            }

            @Override
            public Optional<HostInfo> hostInfo() {
                return Optional.empty();
            }

            @Override
            public Map<String, String> clientTags() {
                return Map.of(AggregatorInstance.CLIENT_TAG, instance);
            }

            @Override
            public Optional<String> rackId() {
                return Optional.empty();
            }
        };
    }
}
