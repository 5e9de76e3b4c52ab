package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Tests the data set container and its validation. */
class DatasetTest {

    @Test
    void shouldExposeArraysWithoutCopyingWhenConstructed() {
        // given
        final float[] x = {1, 2, 3, 4, 5, 6};
        final float[] y = {0, 2};

        // when
        final Dataset data = new Dataset("tiny", 3, x, y, 3);

        // then
        assertThat(data.size()).isEqualTo(2);
        assertThat(data.features()).isEqualTo(3);
        assertThat(data.isClassification()).isTrue();
        assertThat(data.x()).isSameAs(x);
        assertThat(data.y()).isSameAs(y);
        assertThat(data.name()).isEqualTo("tiny");
    }

    @Test
    void shouldRejectDataWhenLengthsDoNotMatch() {
        // when / then
        assertThatThrownBy(() -> new Dataset("bad", 3, new float[5], new float[2], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad")
                .hasMessageContaining("5 values");
    }

    @Test
    void shouldRejectLabelsWhenOutsideClasses() {
        // when / then
        assertThatThrownBy(() -> new Dataset("bad", 1, new float[2], new float[] {0, 3}, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample 1");
        assertThatThrownBy(() -> new Dataset("bad", 1, new float[1], new float[] {0.5f}, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Dataset("bad", 1, new float[1], new float[] {0}, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCopyTheFirstSamplesWhenAskedForAHead() {
        // given
        final Dataset data = new Dataset("tiny", 2, new float[] {1, 2, 3, 4, 5, 6}, new float[] {0, 1, 2}, 3);

        // when
        final Dataset head = data.head(2);
        final Dataset all = data.head(10);

        // then
        assertThat(head.name()).isEqualTo("tiny-head2");
        assertThat(head.x()).containsExactly(1, 2, 3, 4);
        assertThat(head.y()).containsExactly(0, 1);
        assertThat(head.classes()).isEqualTo(3);
        assertThat(head.x()).isNotSameAs(data.x());
        assertThat(all.size()).isEqualTo(3);
        assertThatThrownBy(() -> data.head(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">= 1 sample");
    }

    /** Levels 0, 0.5, 1, 1.5 ... for codes 0, 1, 2, 3 ... */
    private static float[] halves() {
        final float[] levels = new float[Dataset.LEVELS];
        for (int c = 0; c < levels.length; c++) {
            levels[c] = c / 2f;
        }
        return levels;
    }

    @Test
    void shouldReadTheLevelOfEachCodeWhenHeldAsCodes() {
        // given: two samples of 3 features, one code above 127
        final byte[] codes = {0, 1, 2, 3, 4, (byte) 255};
        final Dataset data = Dataset.ofCodes("coded", 3, codes, halves(), new float[] {1, 0}, 2);
        final float[] row = {9, 9, 9, 9, 9};

        // when
        data.copyRow(1, row, 1);

        // then
        assertThat(data.hasCodes()).isTrue();
        assertThat(data.size()).isEqualTo(2);
        assertThat(row).containsExactly(9, 1.5f, 2, 127.5f, 9);
        assertThat(data.x()).containsExactly(0, 0.5f, 1, 1.5f, 2, 127.5f);
        assertThat(data.x()).isNotSameAs(data.x());
    }

    @Test
    void shouldCopyTheSameFloatsWhenHeldAsFloats() {
        // given
        final Dataset data = new Dataset("tiny", 2, new float[] {1, 2, 3, 4}, new float[] {0, 1}, 2);
        final float[] row = new float[3];

        // when
        data.copyRow(1, row, 1);

        // then
        assertThat(data.hasCodes()).isFalse();
        assertThat(row).containsExactly(0, 3, 4);
        assertThatThrownBy(() -> data.copyRow(2, row, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void shouldKeepTheCodesWhenTakingAHeadOrRows() {
        // given
        final Dataset data =
                Dataset.ofCodes("coded", 2, new byte[] {1, 2, 3, 4, 5, 6}, halves(), new float[] {0, 1, 2}, 3);

        // when
        final Dataset head = data.head(2);
        final Dataset rows = data.rows(new int[] {2, 0}, "picked");

        // then
        assertThat(head.hasCodes()).isTrue();
        assertThat(head.name()).isEqualTo("coded-head2");
        assertThat(head.x()).containsExactly(0.5f, 1, 1.5f, 2);
        assertThat(head.y()).containsExactly(0, 1);
        assertThat(rows.hasCodes()).isTrue();
        assertThat(rows.x()).containsExactly(2.5f, 3, 0.5f, 1);
        assertThat(rows.y()).containsExactly(2, 0);
    }

    @Test
    void shouldRejectCodesWhenLevelsOrLengthsAreWrong() {
        // when / then
        assertThatThrownBy(() -> Dataset.ofCodes("bad", 2, new byte[4], new float[255], new float[2], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dataset bad: levels has 255 values, expected 256");
        assertThatThrownBy(() -> Dataset.ofCodes("bad", 2, new byte[5], halves(), new float[2], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dataset bad: codes has 5 values, expected 2 samples x 2 features = 4");
        assertThatThrownBy(() -> Dataset.ofCodes("bad", 2, null, halves(), new float[2], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> Dataset.ofCodes("bad", 1, new byte[2], halves(), new float[] {0, 2}, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample 1");
    }
}
