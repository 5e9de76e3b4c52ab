package io.paramhub.topology.placement;

import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.aggregator.AggregatorInstance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignmentUtils;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator's Kafka Streams task assignor (KIP-924, {@code task.assignor.class}): places every task of a
 * shard partition (the shard task, and on partition 0 the control fan-out) on the aggregator instance the
 * newest {@code placements} record names. An instance is recognised by its client tag
 * {@value AggregatorInstance#CLIENT_TAG} ({@link AggregatorInstance#id()}).
 *
 * <p>Partitions the placement does not name, or whose named instance is not in the group, and every
 * partition before the first placement, are placed balanced and sticky: with their previous owner while it
 * holds no more than its share (partitions / instances, rounded up), else on the instance holding fewest.
 * Standby replicas, when configured, are placed by Kafka Streams' default.
 *
 * <p>Only the group leader assigns, and only in a rebalance: a placement published later takes effect in the
 * rebalance its readers start ({@link PlacementRebalancer}); none is asked for otherwise. A periodic follow-up
 * rebalance every {@value #CHECK_INTERVAL_CONFIG} ms can still be asked for (0, the default: none). Kafka
 * Streams creates and configures a new assignor for each rebalance, with the app's original settings: the
 * {@link PlacementSource} arrives as the object under {@value #SOURCE_CONFIG}.
 */
public final class PlacementTaskAssignor implements TaskAssignor {

    private static final Logger log = LoggerFactory.getLogger(PlacementTaskAssignor.class);

    /** Streams setting holding the {@link PlacementSource} object (put there by the aggregator runner). */
    public static final String SOURCE_CONFIG = "paramhub.aggregator.placement.source";
    /** Streams setting: ms between periodic rebalances that look for a new placement; 0 (the default) = none. */
    public static final String CHECK_INTERVAL_CONFIG = "paramhub.aggregator.placement.check.ms";

    public static final long DEFAULT_CHECK_INTERVAL_MS = 0;

    private PlacementSource source = Optional::empty;
    private long checkIntervalMs = DEFAULT_CHECK_INTERVAL_MS;

    @Override
    public void configure(final Map<String, ?> configs) {
        final Object given = configs.get(SOURCE_CONFIG);
        if (given instanceof PlacementSource placements) {
            source = placements;
        } else if (given != null) {
            throw new ConfigException(SOURCE_CONFIG, given, "must be a " + PlacementSource.class.getName());
        }
        checkIntervalMs = checkIntervalMs(configs);
    }

    /** {@value #CHECK_INTERVAL_CONFIG} from {@code configs}, or its default; at least 0. */
    public static long checkIntervalMs(final Map<?, ?> configs) {
        final Object value = configs.get(CHECK_INTERVAL_CONFIG);
        if (value == null) {
            return DEFAULT_CHECK_INTERVAL_MS;
        }
        final long ms;
        try {
            ms = Long.parseLong(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(CHECK_INTERVAL_CONFIG, value, "must be a whole number of ms");
        }
        if (ms < 0) {
            throw new ConfigException(CHECK_INTERVAL_CONFIG, value, "must be at least 0");
        }
        return ms;
    }

    @Override
    public TaskAssignment assign(final ApplicationState state) {
        final Map<ProcessId, KafkaStreamsState> clients = new TreeMap<>(state.kafkaStreamsStates(false));
        final Optional<ShardPlacement> placement = source.current();
        final Map<ProcessId, Set<TaskId>> tasks =
                place(clients, state.allTasks().keySet(), placement);

        final Map<ProcessId, KafkaStreamsAssignment> assignments = new TreeMap<>();
        boolean followup = checkIntervalMs > 0;
        for (final ProcessId process : clients.keySet()) {
            final Set<AssignedTask> active = new HashSet<>();
            tasks.getOrDefault(process, Set.of())
                    .forEach(task -> active.add(new AssignedTask(task, AssignedTask.Type.ACTIVE)));
            KafkaStreamsAssignment assignment = KafkaStreamsAssignment.of(process, active);
            if (followup) {
                // one client is enough to start the next rebalance
                assignment = assignment.withFollowupRebalance(Instant.now().plusMillis(checkIntervalMs));
                followup = false;
            }
            assignments.put(process, assignment);
        }
        if (state.assignmentConfigs().numStandbyReplicas() > 0) {
            TaskAssignmentUtils.defaultStandbyTaskAssignment(state, assignments);
        }
        // say so only when a task changes hands
        final boolean moved = tasks.entrySet().stream()
                .anyMatch(entry ->
                        !clients.get(entry.getKey()).previousActiveTasks().containsAll(entry.getValue()));
        if (moved) {
            log.info(
                    "placement {}: {}",
                    placement.map(p -> "version " + p.getVersion()).orElse("none yet"),
                    describe(clients, tasks));
        } else {
            log.debug("placement unchanged: {}", describe(clients, tasks));
        }
        return new TaskAssignment(assignments.values());
    }

    /**
     * Active tasks per client: each partition's tasks together, on the instance the placement names when it
     * is in the group, else balanced and sticky.
     */
    static Map<ProcessId, Set<TaskId>> place(
            final Map<ProcessId, KafkaStreamsState> clients,
            final Set<TaskId> allTasks,
            final Optional<ShardPlacement> placement) {
        final SortedMap<Integer, List<TaskId>> byPartition = new TreeMap<>();
        allTasks.forEach(task -> byPartition
                .computeIfAbsent(task.partition(), p -> new ArrayList<>())
                .add(task));

        final Map<String, ProcessId> byInstance = new HashMap<>();
        final Map<Integer, ProcessId> previous = new HashMap<>();
        clients.forEach((process, client) -> {
            final String instance = client.clientTags().get(AggregatorInstance.CLIENT_TAG);
            if (instance != null && byInstance.putIfAbsent(instance, process) != null) {
                log.warn(
                        "two aggregator instances carry the id {}: only {} follows the placement",
                        instance,
                        byInstance.get(instance));
            }
            client.previousActiveTasks().forEach(task -> previous.putIfAbsent(task.partition(), process));
        });
        final Map<Integer, String> named = new HashMap<>();
        placement.ifPresent(p -> {
            for (final PartitionOwner owner : p.getOwners()) {
                named.put(owner.getPartition(), owner.getInstance());
            }
        });

        final Map<ProcessId, Set<TaskId>> assigned = new TreeMap<>();
        final Map<ProcessId, Integer> load = new TreeMap<>();
        clients.keySet().forEach(process -> {
            assigned.put(process, new HashSet<>());
            load.put(process, 0);
        });
        final List<Integer> unplaced = new ArrayList<>();
        byPartition.forEach((partition, tasks) -> {
            final ProcessId owner = byInstance.get(named.get(partition));
            if (owner != null) {
                assigned.get(owner).addAll(tasks);
                load.merge(owner, 1, Integer::sum);
            } else {
                unplaced.add(partition);
            }
        });
        if (clients.isEmpty()) {
            return assigned;
        }
        final int share = (byPartition.size() + clients.size() - 1) / clients.size();
        for (final int partition : unplaced) {
            ProcessId owner = previous.get(partition);
            if (owner == null || !clients.containsKey(owner) || load.get(owner) >= share) {
                owner = load.entrySet().stream()
                        .min(Map.Entry.comparingByValue())
                        .map(Map.Entry::getKey)
                        .orElseThrow();
            }
            assigned.get(owner).addAll(byPartition.get(partition));
            load.merge(owner, 1, Integer::sum);
        }
        return assigned;
    }

    private static String describe(
            final Map<ProcessId, KafkaStreamsState> clients, final Map<ProcessId, Set<TaskId>> tasks) {
        final List<String> parts = new ArrayList<>();
        tasks.forEach((process, ids) -> parts.add(
                clients.get(process).clientTags().getOrDefault(AggregatorInstance.CLIENT_TAG, process.toString()) + "="
                        + new TreeSet<>(ids)));
        return String.join(", ", parts);
    }
}
