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

    @Test
    void shouldAddAPartialSummedInDoubleAsIfItsPartsWereAddedOneByOne() {
        // given: three float32 gradients whose double sum float32 cannot hold
        final float[][] parts = {{1e8f, 0.1f}, {1, -0.3f}, {1, 1e-9f}};
        final GradientSum oneByOne = new GradientSum(2);
        final double[] hostSum = new double[2];
        for (final float[] part : parts) {
            oneByOne.add(part, 2);
            for (int i = 0; i < 2; i++) {
                hostSum[i] += part[i];
            }
        }

        // when
        final GradientSum whole = new GradientSum(2);
        whole.add(hostSum, 6);

        // then
        assertThat(whole.samples()).isEqualTo(6);
        assertThat(whole.mean()).containsExactly(oneByOne.mean());
        assertThatThrownBy(() -> whole.add(new double[3], 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldHoldTheUnroundedSumOfItsPartsInDouble() {
        // given: float32 parts whose sum a float32 accumulator would lose
        final GradientSum sum = new GradientSum(2);

        // when
        sum.add(new float[] {1e8f, 0.5f}, 1);
        sum.add(new float[] {1f, 0.25f}, 2);
        sum.add(new float[] {-1e8f, 1e-9f}, 3);

        // then: what a host's sum sends as FLOAT64, and the samples it stands for
        assertThat(sum.values()).containsExactly(1.0, 0.75 + (double) 1e-9f);
        assertThat(sum.samples()).isEqualTo(6);
    }
}
