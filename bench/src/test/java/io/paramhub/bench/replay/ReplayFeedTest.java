package io.paramhub.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayFeedTest {

    private static RecordedRecord record(final int partition, final long offset, final long timestamp) {
        return new RecordedRecord(partition, offset, timestamp, "k", new byte[0]);
    }

    @Test
    void shouldKeepEachPartitionsOffsetOrderAndMergePartitionsByTimestampWhenTopicsAreMerged() {
        // given: partition 0 holds an out-of-order timestamp, which must not overtake its offset order
        final Map<RecordedTopic, List<RecordedRecord>> byTopic = Map.of(
                RecordedTopic.GRADIENTS, List.of(record(0, 1, 30), record(0, 0, 10), record(1, 0, 20), record(1, 1, 5)),
                RecordedTopic.MEMBERSHIP, List.of(record(0, 0, 15)));

        // when
        final List<ReplayFeed.Item> merged = ReplayFeed.merge(byTopic);

        // then
        assertThat(merged)
                .extracting(item -> item.topic() + "/" + item.record().partition() + "@"
                        + item.record().offset())
                .containsExactly("GRADIENTS/0@0", "MEMBERSHIP/0@0", "GRADIENTS/1@0", "GRADIENTS/1@1", "GRADIENTS/0@1");
    }
}
