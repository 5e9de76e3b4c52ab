package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Tests summing partial gradients and averaging them. */
class GradientSumTest {

    @Test
    void shouldDivideBySampleCountWhenTakingMean() {
        // given
        final GradientSum sum = new GradientSum(2);

        // when
        sum.add(new float[] {3, -1}, 2);
        sum.add(new float[] {1, 5}, 2);

        // then
        assertThat(sum.samples()).isEqualTo(4);
        assertThat(sum.mean()).containsExactly(1, 1);
    }

    @Test
    void shouldKeepDoublePrecisionWhenSummingManyPartials() {
        // given: 1e8 + 1 + 1 ... is lost in float but kept in double
        final GradientSum sum = new GradientSum(1);

        // when
        sum.add(new float[] {1e8f}, 1);
        for (int i = 0; i < 100; i++) {
            sum.add(new float[] {1}, 1);
        }
        sum.add(new float[] {-1e8f}, 1);

        // then
        assertThat(sum.mean()[0]).isEqualTo((float) (100.0 / 102));
    }

    @Test
    void shouldFailWhenNoSamples() {
        // when / then
        assertThatThrownBy(() -> new GradientSum(3).mean()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new GradientSum(3).add(new float[2], 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
