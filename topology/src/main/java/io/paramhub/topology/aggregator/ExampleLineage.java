package io.paramhub.topology.aggregator;

import io.paramhub.avro.OffsetRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The data-topic offsets a topic-mode job's model has been trained on, its lineage: per partition, disjoint
 * {@code [start, end)} ranges in offset order, touching ones merged ({@code [0,5) + [5,9) = [0,9)}), and how many
 * offsets they cover. It takes a gradient's ranges ({@code GradientShard.examples}) in O(log n) each, and says
 * whether they overlap what it holds (or each other): an example trained twice. Mutable, owned by one shard (or
 * copied by a {@link LineageHistory}); reads and writes no topic.
 */
public final class ExampleLineage {

    private static final Comparator<OffsetRange> BY_PARTITION_AND_START =
            Comparator.comparingInt(OffsetRange::getPartition).thenComparingLong(OffsetRange::getStart);

    /** Per partition, each range's start to its end. */
    private final TreeMap<Integer, TreeMap<Long, Long>> partitions = new TreeMap<>();

    private long examples;

    private ExampleLineage() {}

    public static ExampleLineage empty() {
        return new ExampleLineage();
    }

    /** The union of {@code ranges}, in any order, overlapping or not. */
    public static ExampleLineage of(final List<OffsetRange> ranges) {
        final ExampleLineage lineage = new ExampleLineage();
        lineage.add(ranges);
        return lineage;
    }

    /** An independent copy: changes to either do not show in the other. */
    public ExampleLineage copy() {
        final ExampleLineage copy = new ExampleLineage();
        partitions.forEach((partition, ranges) -> copy.partitions.put(partition, new TreeMap<>(ranges)));
        copy.examples = examples;
        return copy;
    }

    /**
     * The first offsets of {@code ranges} that this lineage holds already (as one range of the offsets in
     * common); empty when it holds none of them. Touching ranges ({@code [0,5)} and {@code [5,9)}) do not
     * overlap, nor does an empty one.
     */
    public Optional<OffsetRange> overlap(final List<OffsetRange> ranges) {
        for (final OffsetRange range : ranges) {
            final TreeMap<Long, Long> held = partitions.get(range.getPartition());
            if (held == null || range.getEnd() <= range.getStart()) {
                continue;
            }
            final Map.Entry<Long, Long> before = held.floorEntry(range.getStart());
            if (before != null && before.getValue() > range.getStart()) {
                return Optional.of(common(range, before.getKey(), before.getValue()));
            }
            final Map.Entry<Long, Long> after = held.higherEntry(range.getStart());
            if (after != null && after.getKey() < range.getEnd()) {
                return Optional.of(common(range, after.getKey(), after.getValue()));
            }
        }
        return Optional.empty();
    }

    /** The first offsets that two of {@code ranges} share (as one range), or empty when no offset is named twice. */
    public static Optional<OffsetRange> overlapAmong(final List<OffsetRange> ranges) {
        if (ranges.size() < 2) {
            return Optional.empty();
        }
        final List<OffsetRange> sorted = new ArrayList<>(ranges.size());
        for (final OffsetRange range : ranges) {
            if (range.getEnd() > range.getStart()) {
                sorted.add(range);
            }
        }
        sorted.sort(BY_PARTITION_AND_START);
        for (int i = 1; i < sorted.size(); i++) {
            final OffsetRange previous = sorted.get(i - 1);
            final OffsetRange range = sorted.get(i);
            if (previous.getPartition() == range.getPartition() && range.getStart() < previous.getEnd()) {
                return Optional.of(common(range, previous.getStart(), previous.getEnd()));
            }
        }
        return Optional.empty();
    }

    /** Adds {@code ranges}, merging each with the ranges it overlaps or touches. */
    public void add(final List<OffsetRange> ranges) {
        for (final OffsetRange range : ranges) {
            add(range.getPartition(), range.getStart(), range.getEnd());
        }
    }

    /** Adds offsets {@code [start, end)} of {@code partition}; nothing when the range is empty. */
    public void add(final int partition, final long start, final long end) {
        if (end <= start) {
            return;
        }
        final TreeMap<Long, Long> held = partitions.computeIfAbsent(partition, ignored -> new TreeMap<>());
        long from = start;
        long to = end;
        final Map.Entry<Long, Long> before = held.floorEntry(start);
        if (before != null && before.getValue() >= start) {
            from = before.getKey();
            to = Math.max(to, before.getValue());
            remove(held, before);
        }
        for (Map.Entry<Long, Long> next = held.ceilingEntry(from);
                next != null && next.getKey() <= to;
                next = held.ceilingEntry(from)) {
            to = Math.max(to, next.getValue());
            remove(held, next);
        }
        held.put(from, to);
        examples += to - from;
    }

    /** How many offsets the ranges cover (offsets that hold no record, such as transaction markers, included). */
    public long examples() {
        return examples;
    }

    public boolean isEmpty() {
        return examples == 0;
    }

    /** The ranges, by partition and then offset, as new Avro records (for {@code ModelShard.examples}). */
    public List<OffsetRange> ranges() {
        final List<OffsetRange> ranges = new ArrayList<>();
        partitions.forEach(
                (partition, held) -> held.forEach((start, end) -> ranges.add(new OffsetRange(partition, start, end))));
        return ranges;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ExampleLineage lineage && partitions.equals(lineage.partitions);
    }

    @Override
    public int hashCode() {
        return partitions.hashCode();
    }

    @Override
    public String toString() {
        return ranges().toString();
    }

    private void remove(final TreeMap<Long, Long> held, final Map.Entry<Long, Long> range) {
        held.remove(range.getKey());
        examples -= range.getValue() - range.getKey();
    }

    private static OffsetRange common(final OffsetRange range, final long start, final long end) {
        return new OffsetRange(range.getPartition(), Math.max(range.getStart(), start), Math.min(range.getEnd(), end));
    }
}
