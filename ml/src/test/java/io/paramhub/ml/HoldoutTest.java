package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tests the seeded holdout split, against vectors from a Python reference of the documented algorithm. */
class HoldoutTest {

    @Test
    void shouldHoldOutTheRowsThePythonReferenceDoesWhenSeedAndFractionAreGiven() {
        // when / then: SplitMix64 Fisher-Yates, first round(f * n) positions (docs/data.md)
        assertThat(testIndices(Holdout.testRows(10, 0.3, 7))).containsExactly(5, 8, 9);
        assertThat(testIndices(Holdout.testRows(10, 0.3, 8))).containsExactly(2, 4, 7);
        assertThat(testIndices(Holdout.testRows(20, 0.2, 0))).containsExactly(5, 15, 18, 19);
    }

    @Test
    void shouldKeepAtLeastOneRowOnEachSideWhenTheFractionRoundsToNoneOrAll() {
        // when
        final boolean[] tiny = Holdout.testRows(3, 0.01, 1);
        final boolean[] huge = Holdout.testRows(3, 0.99, 1);

        // then
        assertThat(testIndices(tiny)).hasSize(1);
        assertThat(testIndices(huge)).hasSize(2);
    }

    @Test
    void shouldRefuseAFractionOutsideZeroAndOneOrTooFewRows() {
        // when / then
        assertThatThrownBy(() -> Holdout.testRows(10, 1.0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Holdout.testRows(10, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Holdout.testRows(1, 0.5, 1)).hasMessageContaining("at least 2 rows");
    }

    @Test
    void shouldSelectRowsInOrderWhenSplittingADataset() {
        // given
        final Dataset data = new Dataset("d", 1, new float[] {0, 1, 2, 3}, new float[] {0, 1, 0, 1}, 2);
        final boolean[] test = {false, true, false, true};

        // when
        final Dataset train = Holdout.select(data, test, false, "train");
        final Dataset held = Holdout.select(data, test, true, "test");

        // then
        assertThat(train.x()).containsExactly(0, 2);
        assertThat(held.x()).containsExactly(1, 3);
        assertThat(held.y()).containsExactly(1, 1);
    }

    private static List<Integer> testIndices(final boolean[] test) {
        final List<Integer> indices = new ArrayList<>();
        for (int i = 0; i < test.length; i++) {
            if (test[i]) {
                indices.add(i);
            }
        }
        return indices;
    }
}
