package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.LinearRegression;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelGradientTest {

    private final Dataset data =
            DataSources.load("linear:n=512,d=16,noise=0.1,seed=5").train();
    private final LinearRegression model = new LinearRegression(16);
    private final float[] params = model.initialParameters(9);
    private final int[] samples =
            IntStream.range(0, 100).map(i -> (i * 37) % data.size()).toArray();

    @Test
    void shouldMatchTheSingleThreadedSumWhenThreadsShareTheSamples() {
        // given
        final double[] single = new double[model.parameterCount()];
        final double[] parallel = new double[model.parameterCount()];
        final double singleLoss;
        final double parallelLoss;

        // when
        try (ParallelGradient one = new ParallelGradient(1);
                ParallelGradient three = new ParallelGradient(3)) {
            singleLoss = one.accumulate(model, params, data, samples, single, 42, 0);
            parallelLoss = three.accumulate(model, params, data, samples, parallel, 42, 0);
        }

        // then
        assertThat(parallelLoss).isCloseTo(singleLoss, within(1e-9 * Math.abs(singleLoss)));
        for (int i = 0; i < single.length; i++) {
            assertThat(parallel[i]).isCloseTo(single[i], within(1e-9 * Math.max(1, Math.abs(single[i]))));
        }
    }

    @Test
    void shouldGiveTheSameBitsEveryTimeForTheSameThreadCount() {
        // given
        final double[] first = new double[model.parameterCount()];
        final double[] second = new double[model.parameterCount()];

        // when
        try (ParallelGradient pool = new ParallelGradient(4)) {
            pool.accumulate(model, params, data, samples, first, 42, 0);
            pool.resize(2);
            pool.resize(4);
            pool.accumulate(model, params, data, samples, second, 42, 0);
        }

        // then
        assertThat(second).containsExactly(first);
    }
}
