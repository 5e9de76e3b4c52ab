package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Trains softmax regression on the real Fashion-MNIST to check the whole chain learns. */
class FashionMnistTrainingTest {

    @Test
    void shouldReachEightyPercentTestAccuracyWhenSoftmaxTrainsOneEpoch() {
        // given
        final TrainTest data = FashionMnist.load(FashionMnist.DEFAULT_DIR);
        final Model model = Models.create("softmax", 784, 10);
        final BatchPlan plan = new BatchPlan(data.train().size(), 128, 42);

        // when
        final float[] params = ReferenceTrainer.trainUnsharded(
                model, data.train(), plan, Optimizers.sgd(0.05, 0.9), plan.iterationsPerEpoch(), 1);

        // then
        assertThat(Evaluation.accuracy(model, params, data.test())).isGreaterThanOrEqualTo(0.80);
    }
}
