package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.OffsetRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClockInputTest {

    @Test
    void shouldMergeEachPartitionsOffsetsIntoRangesSplitOnlyWhereABadExampleLies() {
        // given: partition 1's offsets 4-6 and 8 (7 bad), partition 0's 10-11, taken round robin
        final List<ClockInput.Example> examples =
                List.of(example(1, 4), example(0, 10), example(1, 5), example(0, 11), example(1, 6), example(1, 8));
        final List<ClockInput.BadExample> bad =
                List.of(new ClockInput.BadExample("t", 1, 7, 0, "k", null, DeadLetterReason.NON_FINITE, "NaN"));

        // when
        final List<OffsetRange> ranges = ClockInput.ranges(examples, bad);

        // then
        assertThat(ranges)
                .containsExactly(new OffsetRange(0, 10L, 12L), new OffsetRange(1, 4L, 7L), new OffsetRange(1, 8L, 9L));
    }

    @Test
    void shouldSpanOffsetsWithoutRecordsWhenNoBadExampleLiesBetween() {
        // given: offsets 3 and 5 of one partition (4 a transaction marker)
        final List<OffsetRange> ranges = ClockInput.ranges(List.of(example(0, 3), example(0, 5)), List.of());

        // then
        assertThat(ranges).containsExactly(new OffsetRange(0, 3L, 6L));
    }

    @Test
    void shouldReadBackTheResumePointWhenFormattedAndStartOverForForeignMetadata() {
        final ExampleFeed.Resume resume = new ExampleFeed.Resume(41, 1_230);

        assertThat(ResumeMetadata.parse(ResumeMetadata.format(resume))).isEqualTo(resume);
        assertThat(ResumeMetadata.parse("")).isEqualTo(ExampleFeed.Resume.START);
        assertThat(ResumeMetadata.parse("committed by someone else")).isEqualTo(ExampleFeed.Resume.START);
    }

    private static ClockInput.Example example(final int partition, final long offset) {
        return new ClockInput.Example(partition, offset, 0, new float[1], 0);
    }
}
