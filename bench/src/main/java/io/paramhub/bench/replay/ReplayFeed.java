package io.paramhub.bench.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The order a replay produces recorded records in: each source partition's records keep their
 * offset order, and the partitions are merged by timestamp, oldest first, as a Streams task would
 * pick them. Records of several topics are merged the same way.
 */
final class ReplayFeed {

    /** A recorded record with the topic it came from. */
    record Item(RecordedTopic topic, RecordedRecord record) {}

    private ReplayFeed() {}

    static List<Item> merge(final Map<RecordedTopic, List<RecordedRecord>> byTopic) {
        final Map<String, List<Item>> byPartition = new TreeMap<>();
        byTopic.forEach((topic, records) -> {
            for (final RecordedRecord record : records) {
                byPartition
                        .computeIfAbsent(topic.name() + "-" + record.partition(), ignored -> new ArrayList<>())
                        .add(new Item(topic, record));
            }
        });
        final List<List<Item>> queues = new ArrayList<>();
        for (final List<Item> items : byPartition.values()) {
            items.sort(Comparator.comparingLong(item -> item.record().offset()));
            queues.add(items);
        }
        final int[] heads = new int[queues.size()];
        final PriorityQueue<Integer> next = new PriorityQueue<>(Comparator.comparingLong(
                        (Integer q) -> queues.get(q).get(heads[q]).record().timestamp())
                .thenComparingInt(q -> q));
        for (int q = 0; q < queues.size(); q++) {
            next.add(q);
        }
        final List<Item> merged = new ArrayList<>();
        while (!next.isEmpty()) {
            final int q = next.poll();
            merged.add(queues.get(q).get(heads[q]));
            heads[q]++;
            if (heads[q] < queues.get(q).size()) {
                next.add(q);
            }
        }
        return merged;
    }
}
