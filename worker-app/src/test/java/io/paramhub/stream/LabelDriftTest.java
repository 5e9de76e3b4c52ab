package io.paramhub.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LabelDriftTest {

    @Test
    void shouldMoveEveryClassWhenDrifting() {
        for (int classes = 2; classes <= 40; classes++) {
            for (long seed = 0; seed < 25; seed++) {
                // when
                final int[] permutation =
                        LabelDrift.derangement(0, classes, seed).permutation();

                // then: a permutation of the classes without a fixed point
                assertThat(Arrays.stream(permutation).sorted().toArray())
                        .isEqualTo(IntStream.range(0, classes).toArray());
                for (int c = 0; c < classes; c++) {
                    assertThat(permutation[c])
                            .as("class %d of %d, seed %d", c, classes, seed)
                            .isNotEqualTo(c);
                }
            }
        }
    }

    @Test
    void shouldDrawThePermutationOfTheReferenceWhenGivenItsSeed() {
        // then: Sattolo's algorithm on SplitMix64, as a Python reference computes it
        assertThat(LabelDrift.derangement(0, 10, 7).permutation()).containsExactly(7, 5, 4, 1, 8, 2, 9, 6, 0, 3);
        assertThat(LabelDrift.derangement(0, 10, 8).permutation()).containsExactly(7, 6, 9, 2, 1, 0, 3, 8, 4, 5);
        assertThat(LabelDrift.derangement(0, 3, 7).permutation()).containsExactly(1, 2, 0);
        assertThat(LabelDrift.derangement(0, 2, 7).permutation()).containsExactly(1, 0);
    }

    @Test
    void shouldKeepLabelsBeforeTheDriftPointAndPermuteThemFromIt() {
        // given
        final LabelDrift drift = LabelDrift.derangement(100, 10, 7);

        // then
        for (int c = 0; c < 10; c++) {
            assertThat(drift.label(0, c)).isEqualTo(c);
            assertThat(drift.label(99, c)).isEqualTo(c);
            assertThat(drift.label(100, c)).isEqualTo(drift.permutation()[c]);
            assertThat(drift.label(1_000_000_000_000L, c)).isEqualTo(drift.permutation()[c]);
        }
        assertThat(drift.toString()).startsWith("from example 100 on, class 0 -> 7, 1 -> 5,");
    }

    @Test
    void shouldLeaveEveryLabelAsItIsWhenThereIsNoDrift() {
        // given
        final LabelDrift none = LabelDrift.none();

        // then
        assertThat(none.drifts()).isFalse();
        assertThat(none.label(Long.MAX_VALUE - 1, 3)).isEqualTo(3);
        assertThat(none.permutation()).isEmpty();
    }

    @Test
    void shouldRefuseDriftWhenThereAreNoClassesToPermute() {
        assertThatThrownBy(() -> LabelDrift.derangement(10, 0, 7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("classification");
        assertThatThrownBy(() -> LabelDrift.derangement(-1, 3, 7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--drift-at must be >= 0");
    }
}
