package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Checks that one network instance can serve several compute threads at once, as a worker's do. */
class ConcurrentGradientTest {

    @Test
    void shouldGiveIdenticalGradientsWhenMlpIsSharedByThreads() throws Exception {
        assertThreadSafe(new Mlp(64, List.of(16, 8), 4), 64);
    }

    @Test
    void shouldGiveIdenticalGradientsWhenCnnIsSharedByThreads() throws Exception {
        assertThreadSafe(new ConvNet(196, List.of(3, 2, 3, 4), 4), 196);
    }

    private static void assertThreadSafe(final Model model, final int features) throws Exception {
        // given
        final Dataset data = NetworkGradientCheck.randomImages(new Random(51), 40, features, 4);
        final float[] params = model.initialParameters(52);
        final int[] samples = NetworkGradientCheck.all(40);
        final double[] expected = new double[model.parameterCount()];
        model.accumulateGradient(params, data, samples, expected);

        // when: four threads, each twenty times
        final ExecutorService pool = Executors.newFixedThreadPool(4);
        final List<Future<double[]>> results = new ArrayList<>();
        try {
            for (int task = 0; task < 80; task++) {
                results.add(pool.submit(() -> {
                    final double[] gradient = new double[model.parameterCount()];
                    model.accumulateGradient(params, data, samples, gradient);
                    return gradient;
                }));
            }

            // then: bit for bit the single-threaded gradient
            for (final Future<double[]> result : results) {
                assertThat(result.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
