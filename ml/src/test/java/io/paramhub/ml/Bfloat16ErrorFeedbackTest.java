package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Tests rounding gradients to bfloat16 with error feedback. */
class Bfloat16ErrorFeedbackTest {

    @Test
    void shouldRoundToNearestBfloat16WithTiesToEven() {
        // given: 1 + 2^-8 lies halfway between the bfloat16s 1 and 1 + 2^-7; 1 + 3 x 2^-8 halfway
        // between 1 + 2^-7 (odd last bit) and 1 + 2^-6 (even)
        final float halfwayDown = 1f + 0x1p-8f;
        final float halfwayUp = 1f + 3 * 0x1p-8f;

        // then
        assertThat(Bfloat16ErrorFeedback.toBfloat16(halfwayDown)).isEqualTo(1f);
        assertThat(Bfloat16ErrorFeedback.toBfloat16(halfwayUp)).isEqualTo(1f + 0x1p-6f);
        assertThat(Bfloat16ErrorFeedback.toBfloat16(1f + 0x1p-8f + 0x1p-20f)).isEqualTo(1f + 0x1p-7f);
        assertThat(Bfloat16ErrorFeedback.toBfloat16(-0.1f)).isEqualTo(Float.intBitsToFloat(0xBDCD0000));
        assertThat(Bfloat16ErrorFeedback.toBfloat16(Float.NaN)).isNaN();
        assertThat(Bfloat16ErrorFeedback.toBfloat16(Float.POSITIVE_INFINITY)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Bfloat16ErrorFeedback.toBfloat16(Float.MAX_VALUE)).isEqualTo(Float.POSITIVE_INFINITY);
    }

    @Test
    void shouldShipOnlyValuesThatBfloat16HoldsExactly() {
        // given
        final Bfloat16ErrorFeedback feedback = new Bfloat16ErrorFeedback(1000);
        final float[] gradient = randomGradient(new SplittableRandom(1), 1000);

        // when
        final float[] shipped = feedback.round(gradient);

        // then: the lower 16 bits are zero, so packing the upper 16 loses nothing
        for (final float value : shipped) {
            assertThat(Float.floatToRawIntBits(value) & 0xFFFF).isZero();
        }
    }

    @Test
    void shouldCarryWhatRoundingDropsSoTheShippedSumTracksTheTrueSum() {
        // given: the same small gradient every clock, far below bfloat16's step at 1
        final Bfloat16ErrorFeedback feedback = new Bfloat16ErrorFeedback(1);
        final float step = 1f + 0x1p-10f;
        double trueSum = 0;
        double shippedSum = 0;
        double roundedAloneSum = 0;

        // when
        for (int clock = 0; clock < 1024; clock++) {
            trueSum += step;
            shippedSum += feedback.round(new float[] {step})[0];
            roundedAloneSum += Bfloat16ErrorFeedback.toBfloat16(step);
        }

        // then: without feedback every 2^-10 is lost (1024 x 2^-10 = 1); with it, at most one bfloat16 step
        assertThat(trueSum - roundedAloneSum).isEqualTo(1.0);
        assertThat(Math.abs(trueSum - shippedSum)).isLessThanOrEqualTo(0x1p-7);
    }

    @Test
    void shouldGiveTheSameBitsForTheSameGradients() {
        // given
        final float[][] clocks = {
            randomGradient(new SplittableRandom(2), 64),
            randomGradient(new SplittableRandom(3), 64),
            randomGradient(new SplittableRandom(4), 64)
        };
        final Bfloat16ErrorFeedback first = new Bfloat16ErrorFeedback(64);
        final Bfloat16ErrorFeedback second = new Bfloat16ErrorFeedback(64);

        // then
        for (final float[] gradient : clocks) {
            assertThat(first.round(gradient)).containsExactly(second.round(gradient));
        }
    }

    private static float[] randomGradient(final SplittableRandom random, final int length) {
        final float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(-6, 2)));
        }
        return values;
    }
}
