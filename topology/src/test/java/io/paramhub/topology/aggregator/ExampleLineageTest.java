package io.paramhub.topology.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.OffsetRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExampleLineageTest {

    private static OffsetRange range(final int partition, final long start, final long end) {
        return new OffsetRange(partition, start, end);
    }

    @Test
    void shouldMergeTouchingRangesOfAPartitionIntoOne() {
        // given
        final ExampleLineage lineage = ExampleLineage.empty();

        // when
        lineage.add(List.of(range(0, 0, 5)));
        lineage.add(List.of(range(0, 5, 9)));

        // then
        assertThat(lineage.ranges()).containsExactly(range(0, 0, 9));
        assertThat(lineage.examples()).isEqualTo(9);
    }

    @Test
    void shouldKeepGapsAndPartitionsApartAndSortThemWhenAddedInAnyOrder() {
        // given
        final ExampleLineage lineage = ExampleLineage.empty();

        // when: a bad example at offset 12 of partition 1 splits its ranges; partition 0 comes later
        lineage.add(List.of(range(1, 13, 20), range(1, 0, 12)));
        lineage.add(List.of(range(0, 100, 150)));

        // then
        assertThat(lineage.ranges()).containsExactly(range(0, 100, 150), range(1, 0, 12), range(1, 13, 20));
        assertThat(lineage.examples()).isEqualTo(50 + 12 + 7);
    }

    @Test
    void shouldBridgeAGapWhenARangeFillsItAndCountEachOffsetOnce() {
        // given
        final ExampleLineage lineage = ExampleLineage.of(List.of(range(2, 0, 4), range(2, 6, 8), range(2, 10, 12)));

        // when: [3, 11) overlaps all three
        lineage.add(2, 3, 11);

        // then
        assertThat(lineage.ranges()).containsExactly(range(2, 0, 12));
        assertThat(lineage.examples()).isEqualTo(12);
    }

    @Test
    void shouldIgnoreAnEmptyRange() {
        // given
        final ExampleLineage lineage = ExampleLineage.empty();

        // when
        lineage.add(0, 7, 7);

        // then
        assertThat(lineage.isEmpty()).isTrue();
        assertThat(lineage.ranges()).isEmpty();
    }

    @Test
    void shouldNameTheOffsetsInCommonWhenARangeOverlapsTheLineage() {
        // given
        final ExampleLineage lineage = ExampleLineage.of(List.of(range(0, 0, 1500), range(1, 200, 300)));

        // then: from either side, and a range inside a held one
        assertThat(lineage.overlap(List.of(range(0, 1400, 1600)))).contains(range(0, 1400, 1500));
        assertThat(lineage.overlap(List.of(range(1, 100, 250)))).contains(range(1, 200, 250));
        assertThat(lineage.overlap(List.of(range(1, 220, 230)))).contains(range(1, 220, 230));
        assertThat(lineage.overlap(List.of(range(1, 0, 1000)))).contains(range(1, 200, 300));
    }

    @Test
    void shouldFindNoOverlapWhenRangesTouchOrLieInOtherPartitions() {
        // given
        final ExampleLineage lineage = ExampleLineage.of(List.of(range(0, 0, 1500), range(1, 200, 300)));

        // then
        assertThat(lineage.overlap(List.of(range(0, 1500, 1600), range(1, 100, 200), range(1, 300, 301))))
                .isEmpty();
        assertThat(lineage.overlap(List.of(range(2, 0, 1500)))).isEmpty();
        assertThat(lineage.overlap(List.of())).isEmpty();
        assertThat(lineage.overlap(List.of(range(0, 10, 10))))
                .as("an empty range")
                .isEmpty();
    }

    @Test
    void shouldFindRangesOfOneGradientThatNameAnOffsetTwice() {
        // then
        assertThat(ExampleLineage.overlapAmong(List.of(range(0, 10, 20), range(1, 0, 30), range(0, 15, 40))))
                .contains(range(0, 15, 20));
        assertThat(ExampleLineage.overlapAmong(List.of(range(0, 10, 20), range(0, 0, 10), range(1, 10, 20))))
                .isEmpty();
        assertThat(ExampleLineage.overlapAmong(List.of(range(0, 10, 20)))).isEmpty();
    }

    @Test
    void shouldLeaveACopyUnchangedWhenTheOriginalGrows() {
        // given
        final ExampleLineage original = ExampleLineage.of(List.of(range(0, 0, 5)));
        final ExampleLineage copy = original.copy();

        // when
        original.add(0, 5, 9);
        original.add(3, 0, 1);

        // then
        assertThat(copy.ranges()).containsExactly(range(0, 0, 5));
        assertThat(copy.examples()).isEqualTo(5);
        assertThat(original).isNotEqualTo(copy);
        assertThat(original).isEqualTo(ExampleLineage.of(List.of(range(3, 0, 1), range(0, 0, 9))));
    }
}
