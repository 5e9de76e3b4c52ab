package io.paramhub.bench.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.ml.Models;
import io.paramhub.ml.PipelineModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tests the hybrid bench's arithmetic: activation bytes a round by the cut, the break-even batch, the verdicts. */
class HybridVerdictsTest {

    private static final PipelineModel CNN = (PipelineModel) Models.create("cnn", 784, 10);

    @Test
    void shouldCountTheDefaultCnnsCutFeaturesAndUnitsBothWaysForEverySample() {
        // 2 stages: 3,136 features and 61 hidden units cross the cut, forward and back, 4 B each
        assertThat(ArmCost.expectedActivationBytes(CNN, 2, 128)).isEqualTo(128L * 3197 * 4 * 2);
        // 3 stages: two cuts, each carrying the features and the units before it
        assertThat(ArmCost.expectedActivationBytes(CNN, 3, 1))
                .isEqualTo((CNN.stage(0, 3).outputWidth() + CNN.stage(1, 3).outputWidth()) * 8L);
        assertThat(ArmCost.expectedActivationBytes(CNN, 1, 128)).isZero();
    }

    @Test
    void shouldBreakEvenWhereTheActivationsOfABatchWeighWhatTheGradientsOfTheFewerWorkersDo() {
        // given the default cnn, 4 workers data-parallel against 2 x 2: 2 x 421,642 gradient floats saved a round
        final long parameters = CNN.parameterCount();
        final ArmCost dataParallel = arm(4 * parameters, 0, 4 * parameters * 4.0, 0);
        final ArmCost hybrid = arm(
                2 * parameters, ArmCost.expectedActivationBytes(CNN, 2, 128), 2 * parameters * 4.0, 128 * 3197 * 8.0);

        // when
        final Double breakEven = HybridVerdicts.breakEvenBatch(dataParallel, hybrid, 128);
        final Map<String, String> verdicts = HybridVerdicts.of(dataParallel, hybrid, 128);

        // then 843,284 floats x 4 B / (3,197 floats x 8 B) = 131.9 images
        assertThat(breakEven).isCloseTo(2.0 * parameters / (3197 * 2), within(1e-9));
        assertThat(breakEven).isCloseTo(131.9, within(0.05));
        assertThat(verdicts.get("gradients")).startsWith("hybrid writes fewer gradient bytes");
        assertThat(verdicts.get("activations")).contains("batch 128 x 3,197 floats across the cuts");
        assertThat(verdicts.get("gradients_and_activations"))
                .startsWith("hybrid writes fewer bytes")
                .contains("moves fewer below a batch of 132 and more above it (batch 128 here)");
    }

    @Test
    void shouldSayNothingIsSavedWhenTheHybridRunPublishesAsManyGradients() {
        final ArmCost same = arm(100, 800, 400, 900);

        assertThat(HybridVerdicts.breakEvenBatch(same, same, 1)).isNull();
        assertThat(HybridVerdicts.of(same, same, 1).get("gradients_and_activations"))
                .contains("saves no gradient bytes");
    }

    private static ArmCost arm(
            final long gradientFloats,
            final long expectedActivationBytes,
            final double gradientBytes,
            final double activationBytes) {
        return new ArmCost(
                "run",
                1,
                1,
                10,
                1,
                1,
                10,
                1,
                0,
                0,
                List.of(),
                gradientBytes,
                gradientFloats,
                activationBytes,
                expectedActivationBytes,
                expectedActivationBytes,
                0,
                0,
                1,
                0.5,
                "accuracy",
                0.5,
                List.of());
    }
}
