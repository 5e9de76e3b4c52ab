package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Shows that the finite-difference check fails on the gradient bugs it is there to catch. */
class NetworkGradientCheckTest {

    @Test
    void shouldReportMismatchWhenOneGradientHasTheWrongSign() {
        // given: the tiny CNN of ConvNetTest with the gradient of one first-layer weight negated
        final Model correct = new ConvNet(196, List.of(3, 2, 3, 4), 5);
        final Random random = new Random(21);
        final Dataset data = NetworkGradientCheck.randomImages(random, 6, 196, 5);
        final float[] params = correct.initialParameters(7);
        for (int i = 0; i < params.length; i++) {
            params[i] += (float) (0.1 * random.nextGaussian());
        }
        final int[] samples = {0, 1, 2, 3, 4, 5, 1};
        final Model broken = new BrokenGradient(correct, gradient -> gradient[7] = -gradient[7]);

        // when
        final List<String> mismatches = NetworkGradientCheck.mismatches(
                broken, params, data, samples, NetworkGradientCheck.all(correct.parameterCount()));

        // then
        assertThat(NetworkGradientCheck.mismatches(
                        correct, params, data, samples, NetworkGradientCheck.all(correct.parameterCount())))
                .isEmpty();
        assertThat(mismatches).hasSize(1).allMatch(line -> line.startsWith("param 7:"));
    }

    @Test
    void shouldReportMismatchesWhenBiasGradientsAreMissing() {
        // given: the tiny MLP without the output layer's bias gradients (the last 3 parameters)
        final Model correct = new Mlp(6, List.of(5, 4), 3);
        final int count = correct.parameterCount();
        final Model broken = new BrokenGradient(correct, gradient -> {
            for (int i = count - 3; i < count; i++) {
                gradient[i] = 0;
            }
        });
        final Random random = new Random(42);
        final Dataset data = NetworkGradientCheck.randomImages(random, 10, 6, 3);
        final float[] params = correct.initialParameters(2);

        // when
        final List<String> mismatches = NetworkGradientCheck.mismatches(
                broken, params, data, NetworkGradientCheck.all(10), NetworkGradientCheck.all(count));

        // then
        assertThat(mismatches).hasSize(3);
    }

    /** A model whose gradient is post-processed by a deliberate bug. */
    private static final class BrokenGradient implements Model {

        private final Model model;
        private final Consumer<double[]> bug;

        BrokenGradient(final Model model, final Consumer<double[]> bug) {
            this.model = model;
            this.bug = bug;
        }

        @Override
        public String kind() {
            return model.kind();
        }

        @Override
        public int inputs() {
            return model.inputs();
        }

        @Override
        public int outputs() {
            return model.outputs();
        }

        @Override
        public int parameterCount() {
            return model.parameterCount();
        }

        @Override
        public float[] initialParameters(final long seed) {
            return model.initialParameters(seed);
        }

        @Override
        public double accumulateGradient(
                final float[] params, final Dataset data, final int[] samples, final double[] gradientSum) {
            final double[] own = new double[gradientSum.length];
            final double loss = model.accumulateGradient(params, data, samples, own);
            bug.accept(own);
            for (int i = 0; i < own.length; i++) {
                gradientSum[i] += own[i];
            }
            return loss;
        }

        @Override
        public float predict(final float[] params, final Dataset data, final int sample) {
            return model.predict(params, data, sample);
        }
    }
}
