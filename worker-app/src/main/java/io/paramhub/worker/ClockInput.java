package io.paramhub.worker;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.OffsetRange;
import io.paramhub.topology.errors.DeadLetters;
import java.util.ArrayList;
import java.util.List;

/**
 * What one clock of a topic-mode worker took from its partitions of the data topic ({@link ExampleFeed}): the
 * examples to train on, in the order taken, the bad ones to set aside, the offset ranges of the examples trained
 * (by partition, then offset; a range never spans a bad example), the records still behind the end of its
 * partitions (-1 unknown), and whether its input is over (its end offsets or its part of {@code max-examples}
 * reached). Reads and writes no topic.
 */
record ClockInput(List<Example> examples, List<BadExample> bad, List<OffsetRange> ranges, long lag, boolean over) {

    /** A training example: where it lies, when it was appended, its features and its target. */
    record Example(int partition, long offset, long timestamp, float[] features, float target) {}

    /** A record that cannot be trained on: where it lies, its key and bytes, why, and what is wrong. */
    record BadExample(
            String topic,
            int partition,
            long offset,
            long timestamp,
            String key,
            byte[] value,
            DeadLetterReason reason,
            String error) {

        /** What {@code worker} of {@code job} sets aside on {@code dead-letters} for it. */
        DeadLetter letter(final String worker, final String job) {
            return DeadLetters.of(
                    topic,
                    partition,
                    offset,
                    reason,
                    worker + " of job " + job + " cannot train on it: " + error,
                    value,
                    timestamp);
        }
    }

    /** The offset ranges of {@code examples}, taken in offset order per partition, split wherever a bad one lies. */
    static List<OffsetRange> ranges(final List<Example> examples, final List<BadExample> bad) {
        final List<OffsetRange> ranges = new ArrayList<>();
        final List<Example> sorted = new ArrayList<>(examples);
        sorted.sort((a, b) -> a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
        OffsetRange open = null;
        for (final Example example : sorted) {
            if (open != null
                    && open.getPartition() == example.partition()
                    && !badBetween(bad, example.partition(), open.getEnd(), example.offset())) {
                open.setEnd(example.offset() + 1);
                continue;
            }
            open = new OffsetRange(example.partition(), example.offset(), example.offset() + 1);
            ranges.add(open);
        }
        return ranges;
    }

    private static boolean badBetween(final List<BadExample> bad, final int partition, final long from, final long to) {
        for (final BadExample example : bad) {
            if (example.partition() == partition && example.offset() >= from && example.offset() < to) {
                return true;
            }
        }
        return false;
    }
}
