package io.paramhub.ml;

import java.util.Random;

/** The data the benchmarks run on: Fashion-MNIST's training set when installed, else random images like it. */
final class BenchmarkData {

    private BenchmarkData() {}

    static Dataset trainingSet() {
        try {
            return FashionMnist.load(FashionMnist.DEFAULT_DIR).train();
        } catch (final DatasetUnavailableException e) {
            final Random random = new Random(1);
            final int samples = 4096;
            final float[] x = new float[samples * FashionMnist.FEATURES];
            for (int i = 0; i < x.length; i++) {
                x[i] = random.nextFloat() < 0.5 ? 0f : random.nextFloat();
            }
            final float[] y = new float[samples];
            for (int i = 0; i < samples; i++) {
                y[i] = random.nextInt(FashionMnist.CLASSES);
            }
            return new Dataset("random-images", FashionMnist.FEATURES, x, y, FashionMnist.CLASSES);
        }
    }

    /** {@code count} sample indices spread over the data set. */
    static int[] samples(final Dataset data, final int count) {
        final int[] samples = new int[count];
        for (int i = 0; i < count; i++) {
            samples[i] = (int) ((long) i * 7919 % data.size());
        }
        return samples;
    }
}
