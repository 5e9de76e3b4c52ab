package io.paramhub.embedded;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's first placement of shard partitions on its aggregator instances (partition → instance index), so that
 * runs to be compared start from the same one rather than from Kafka Streams' draw: published on
 * {@code placements} as version 0 before the job starts, with the run's aggregators following placements. Written
 * and read as {@code P:I,P:I,...} (partition P on aggregator I; partitions not named are placed balanced); a run's
 * servers report gives the one it started from in the same form.
 *
 * @param owners partition → aggregator index; empty: Kafka Streams' own first assignment
 */
public record FirstPlacement(SortedMap<Integer, Integer> owners) {

    private static final Logger log = LoggerFactory.getLogger(FirstPlacement.class);
    /** The key of the one placement record, as the orchestrator writes it. */
    private static final String KEY = "aggregators";

    public static final FirstPlacement NONE = new FirstPlacement(Collections.emptySortedMap());

    public FirstPlacement {
        owners = Collections.unmodifiableSortedMap(new TreeMap<>(owners));
    }

    /** {@code P:I,P:I,...}; refuses anything else, and an index not below {@code aggregators}. */
    public static FirstPlacement parse(final String text, final int aggregators) {
        final SortedMap<Integer, Integer> owners = new TreeMap<>();
        for (final String pair : text.split(",")) {
            final String[] parts = pair.trim().split(":");
            try {
                final int partition = Integer.parseInt(parts[0].trim());
                final int instance = Integer.parseInt(parts[1].trim());
                if (parts.length != 2 || partition < 0 || instance < 0 || instance >= aggregators) {
                    throw new IllegalArgumentException(pair);
                }
                if (owners.put(partition, instance) != null) {
                    throw new IllegalArgumentException("partition " + partition + " named twice");
                }
            } catch (final RuntimeException e) {
                throw new IllegalArgumentException(
                        "a first placement is P:I,P:I,... with P a partition and I an " + "aggregator index below "
                                + aggregators + ", not " + text,
                        e);
            }
        }
        return new FirstPlacement(owners);
    }

    public boolean given() {
        return !owners.isEmpty();
    }

    /** Publishes it as version 0, naming the instances {@code ids} (by index). */
    void publish(final Topic<String, ShardPlacement> placements, final Properties client, final List<String> ids) {
        final List<PartitionOwner> named = new ArrayList<>();
        owners.forEach((partition, index) -> named.add(new PartitionOwner(partition, ids.get(index))));
        final ShardPlacement placement = ShardPlacement.newBuilder()
                .setVersion(0)
                .setOwners(named)
                .setMsPerShardRound(Map.of())
                .setCurrentRoundMs(0)
                .setPredictedRoundMs(0)
                .setReason("first placement given: " + this)
                .setIssuedAt(Instant.now())
                .build();
        try (KafkaProducer<String, ShardPlacement> producer = new KafkaProducer<>(
                ClientProperties.producer(client),
                new StringSerializer(),
                placements.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(placements.name(), KEY, placement))
                    .get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing the first placement", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("could not publish the first placement: " + e.getCause(), e.getCause());
        }
    }

    /** Waits (up to {@code timeout}) until every runner holds the partitions it names for it. */
    void await(final List<AggregatorRunner> runners, final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean placed = true;
            for (int index = 0; index < runners.size() && placed; index++) {
                final Set<Integer> held = runners.get(index).streams().metadataForLocalThreads().stream()
                        .flatMap(thread -> thread.activeTasks().stream())
                        .map(task -> task.taskId().partition())
                        .collect(Collectors.toSet());
                final int instance = index;
                placed = owners.entrySet().stream()
                        .filter(entry -> entry.getValue() == instance)
                        .allMatch(entry -> held.contains(entry.getKey()));
            }
            if (placed) {
                return;
            }
            Thread.sleep(50);
        }
        log.warn("the first placement {} has not taken effect after {}; starting the job anyway", this, timeout);
    }

    /** Where {@code rounds}' partitions ran first, by the index of their instance in {@code instances}. */
    public static FirstPlacement of(final ServerRounds rounds, final List<String> instances) {
        final SortedMap<Integer, Integer> owners = new TreeMap<>();
        rounds.owners().forEach((partition, timeline) -> {
            final int index = instances.indexOf(timeline.get(timeline.firstKey()));
            if (index >= 0) {
                owners.put(partition, index);
            }
        });
        return new FirstPlacement(owners);
    }

    @Override
    public String toString() {
        return owners.entrySet().stream()
                .map(entry -> entry.getKey() + ":" + entry.getValue())
                .collect(Collectors.joining(","));
    }
}
