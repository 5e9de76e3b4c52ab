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
}
