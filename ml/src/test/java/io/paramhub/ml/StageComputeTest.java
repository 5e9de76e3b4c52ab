package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Tests the stages' compute estimates ({@link PipelineStage#multiplyAdds()}) and shares that emulated compute charges. */
class StageComputeTest {

    @Test
    void shouldPutTheDefaultCnnsConvolutionsAndSoNinetyFivePercentOfItsComputeInStageZero() {
        // given the default cnn: 3x3 convolutions padded by 1 on 28x28 images, 32 then 64 channels, 128 hidden units
        final PipelineModel model = (PipelineModel) Models.create("cnn", 784, 10);

        // when
        final PipelineStage first = model.stage(0, 2);
        final PipelineStage second = model.stage(1, 2);

        // then conv1 28*28 x 9 x 32 + conv2 14*14 x 288 x 64, and 3,136 inputs per hidden unit (61 on stage 0)
        final long convolutions = 28L * 28 * 9 * 32 + 14L * 14 * 32 * 9 * 64;
        assertThat(convolutions).isEqualTo(3_838_464);
        assertThat(first.multiplyAdds()).isEqualTo(convolutions + 3136L * 61);
        assertThat(second.multiplyAdds()).isEqualTo(3136L * 67 + 128 * 10);
        final double total = first.multiplyAdds() + second.multiplyAdds();
        assertThat(model.computeShare(0, 2)).isCloseTo(first.multiplyAdds() / total, within(1e-12));
        assertThat(model.computeShare(0, 2)).isCloseTo(0.9502, within(1e-4));
        assertThat(model.computeShare(1, 2)).isCloseTo(0.0498, within(1e-4));
        // while the parameters are shared nearly evenly
        assertThat((double) first.parameterCount() / model.parameterCount()).isLessThan(0.5);
    }

    @Test
    void shouldGiveMlpStagesTheirLayersInputsTimesOutputs() {
        final PipelineModel model = (PipelineModel) Models.create("mlp", 784, 10);

        assertThat(model.stage(0, 2).multiplyAdds()).isEqualTo(784L * 256);
        assertThat(model.stage(1, 2).multiplyAdds()).isEqualTo(256L * 128 + 128 * 10);
        assertThat(model.stage(0, 1).multiplyAdds()).isEqualTo(784L * 256 + 256 * 128 + 128 * 10);
        assertThat(model.computeShare(0, 1)).isEqualTo(1.0);
    }

    @Test
    void shouldGiveSharesThatAddUpToOneForAnyCut() {
        for (final String kind : new String[] {"cnn", "cnn:3,4,6,12,1", "mlp:24,12,8"}) {
            final PipelineModel model = (PipelineModel) Models.create(kind, kind.startsWith("cnn") ? 784 : 36, 4);
            for (int stages = 1; stages <= 3; stages++) {
                double sum = 0;
                for (int k = 0; k < stages; k++) {
                    final double share = model.computeShare(k, stages);
                    assertThat(share).isGreaterThan(0).isLessThanOrEqualTo(1);
                    sum += share;
                }
                assertThat(sum).as(kind + " in " + stages).isCloseTo(1.0, within(1e-12));
            }
        }
    }
}
