package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests SGD, momentum and Adam against hand-computed updates. */
class OptimizersTest {

    private static float[][] state(final Optimizer optimizer, final int length) {
        return new float[optimizer.stateSlots()][length];
    }

    @Test
    void shouldSubtractScaledGradientWhenPlainSgd() {
        // given
        final Optimizer sgd = Optimizers.sgd(0.1, 0);
        final float[] params = {1, -2};
        final float[][] state = state(sgd, 2);

        // when
        sgd.step(params, new float[] {0.5f, -1}, state, 1);
        sgd.step(params, new float[] {0.5f, 2}, state, 2);

        // then: 1 - 0.05 - 0.05, -2 + 0.1 - 0.2
        assertThat(sgd.stateSlots()).isZero();
        assertThat(params[0]).isCloseTo(0.9f, within(1e-6f));
        assertThat(params[1]).isCloseTo(-2.1f, within(1e-6f));
    }

    @Test
    void shouldTakeTheStepOfTheScaledRateWhenGivenALearningRateFactor() {
        // given: the same gradients, once at rate 0.1 x factor 0.25 and once at rate 0.025
        final float[] gradient = {0.5f, -1.5f};
        for (final boolean adam : new boolean[] {false, true}) {
            final Optimizer scaled = adam ? Optimizers.adam(0.1, 0.9, 0.999, 1e-8) : Optimizers.sgd(0.1, 0.9);
            final Optimizer plain = adam ? Optimizers.adam(0.025, 0.9, 0.999, 1e-8) : Optimizers.sgd(0.025, 0.9);
            final float[] scaledParams = {1, -2};
            final float[] plainParams = {1, -2};
            final float[][] scaledState = state(scaled, 2);
            final float[][] plainState = state(plain, 2);

            // when
            for (int step = 1; step <= 3; step++) {
                scaled.step(scaledParams, gradient, scaledState, step, 0.25);
                plain.step(plainParams, gradient, plainState, step);
            }

            // then
            assertThat(scaledParams).containsExactly(plainParams, within(1e-7f));
            assertThat(scaledState[0]).containsExactly(plainState[0]);
        }
    }

    @Test
    void shouldAccumulateVelocityWhenMomentum() {
        // given
        final Optimizer momentum = Optimizers.sgd(0.1, 0.9);
        final float[] params = {1};
        final float[][] state = state(momentum, 1);

        // when
        momentum.step(params, new float[] {0.5f}, state, 1);
        final float afterFirst = params[0];
        momentum.step(params, new float[] {0.5f}, state, 2);

        // then: v1 = 0.5, p1 = 0.95; v2 = 0.9 * 0.5 + 0.5 = 0.95, p2 = 0.95 - 0.095 = 0.855
        assertThat(momentum.stateSlots()).isEqualTo(1);
        assertThat(afterFirst).isCloseTo(0.95f, within(1e-6f));
        assertThat(state[0][0]).isCloseTo(0.95f, within(1e-6f));
        assertThat(params[0]).isCloseTo(0.855f, within(1e-6f));
    }

    @Test
    void shouldApplyBiasCorrectedMomentsWhenAdam() {
        // given
        final Optimizer adam = Optimizers.adam(0.1, 0.9, 0.999, 1e-8);
        final float[] params = {1};
        final float[][] state = state(adam, 1);

        // when
        adam.step(params, new float[] {0.5f}, state, 1);
        final float afterFirst = params[0];
        adam.step(params, new float[] {-1}, state, 2);

        // then
        // step 1: m = 0.05, v = 0.00025, m^ = 0.5, v^ = 0.25, p = 1 - 0.1 * 0.5 / 0.5 = 0.9
        // step 2: m = 0.045 - 0.1 = -0.055, v = 0.00024975 + 0.001 = 0.00124975,
        //         m^ = -0.055 / 0.19 = -0.28947368, v^ = 0.00124975 / 0.001999 = 0.62518759,
        //         p = 0.9 + 0.1 * 0.28947368 / 0.79068805 = 0.93661035
        assertThat(adam.stateSlots()).isEqualTo(2);
        assertThat(afterFirst).isCloseTo(0.9f, within(1e-6f));
        assertThat(state[0][0]).isCloseTo(-0.055f, within(1e-7f));
        assertThat(state[1][0]).isCloseTo(0.00124975f, within(1e-9f));
        assertThat(params[0]).isCloseTo(0.93661035f, within(1e-6f));
    }

    @Test
    void shouldGiveSameResultWhenUpdatingShardsSeparately() {
        // given
        final Random random = new Random(1);
        final Optimizer adam = Optimizers.adam(0.01, 0.9, 0.999, 1e-8);
        final ShardLayout layout = ShardLayout.of(11, 3);
        final float[] whole = GradientCheck.gaussian(random, 11, 1);
        final float[] sharded = whole.clone();
        final float[][] wholeState = state(adam, 11);
        final float[][][] shardState = new float[3][][];
        for (int s = 0; s < 3; s++) {
            shardState[s] = state(adam, layout.length(s));
        }

        // when
        for (int step = 1; step <= 3; step++) {
            final float[] gradient = GradientCheck.gaussian(random, 11, 1);
            adam.step(whole, gradient, wholeState, step);
            for (int s = 0; s < 3; s++) {
                final float[] slice = layout.slice(sharded, s);
                adam.step(slice, layout.slice(gradient, s), shardState[s], step);
                layout.place(sharded, s, slice);
            }
        }

        // then
        assertThat(sharded).containsExactly(whole);
    }

    @Test
    void shouldMatchTheOneLoopAdamBitForBitAcrossBlocks() {
        // given: more values than a block of the step's loops, and a last block that is not full
        final Random random = new Random(3);
        final int length = 2_500;
        final Optimizer adam = Optimizers.adam(0.005, 0.9, 0.999, 1e-8);
        final float[] params = GradientCheck.gaussian(random, length, 1);
        final float[] expected = params.clone();
        final float[][] state = state(adam, length);
        final float[][] expectedState = state(adam, length);

        // when
        for (int step = 1; step <= 5; step++) {
            final float[] gradient = GradientCheck.gaussian(random, length, 1e-3);
            adam.step(params, gradient, state, step, 0.5);
            oneLoopAdam(expected, gradient, expectedState, step, 0.005 * 0.5);
        }

        // then
        assertThat(params).containsExactly(expected);
        assertThat(state[0]).containsExactly(expectedState[0]);
        assertThat(state[1]).containsExactly(expectedState[1]);
    }

    /** Adam as one loop, in double, rounded to float where stored: the arithmetic the step must keep. */
    private static void oneLoopAdam(
            final float[] params, final float[] gradient, final float[][] state, final long step, final double rate) {
        final double correction1 = 1 - Math.pow(0.9, step);
        final double correction2 = 1 - Math.pow(0.999, step);
        for (int i = 0; i < params.length; i++) {
            final double g = gradient[i];
            final double m = 0.9 * state[0][i] + (1 - 0.9) * g;
            final double v = 0.999 * state[1][i] + (1 - 0.999) * g * g;
            state[0][i] = (float) m;
            state[1][i] = (float) v;
            params[i] = (float) (params[i] - rate * (m / correction1) / (Math.sqrt(v / correction2) + 1e-8));
        }
    }

    @Test
    void shouldRejectArgumentsWhenOutOfRange() {
        // when / then
        assertThatThrownBy(() -> Optimizers.sgd(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Optimizers.sgd(0.1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Optimizers.sgd(Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Optimizers.adam(0.1, 0.9, 1.0, 1e-8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Optimizers.adam(0.1, -0.1, 0.999, 1e-8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Optimizers.adam(0.1, 0.9, 0.999, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectStepWhenStateOrStepIsWrong() {
        // given
        final Optimizer adam = Optimizers.adam(0.1, 0.9, 0.999, 1e-8);

        // when / then
        assertThatThrownBy(() -> adam.step(new float[2], new float[2], new float[1][2], 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state slots");
        assertThatThrownBy(() -> adam.step(new float[2], new float[2], new float[2][2], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1-based");
        assertThatThrownBy(() -> adam.step(new float[2], new float[3], new float[2][2], 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
