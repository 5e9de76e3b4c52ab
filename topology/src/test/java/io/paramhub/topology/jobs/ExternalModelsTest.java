package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.TensorShape;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.TopicCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExternalModelsTest {

    @Test
    void shouldAcceptExternalModelWhenTensorsAndVersionZeroFitParameters() {
        assertThat(JobSpecs.problems(ExternalJobs.external().build())).isEmpty();
    }

    @Test
    void shouldRefuseExternalModelWhenTensorsDoNotAddUpToParameters() {
        // given
        final JobSpec spec = ExternalJobs.external()
                .setTensors(List.of(new TensorShape("fc.weight", List.of(2, 3))))
                .build();

        // when / then
        assertThat(JobSpecs.problems(spec)).containsExactly("the tensors hold 6 values but parameters is 8");
    }

    @Test
    void shouldRefuseExternalModelWhenVersionZeroIsMissingShortOrNotFinite() {
        assertThat(JobSpecs.problems(
                        ExternalJobs.external().setInitialParameters(null).build()))
                .containsExactly("an external model needs initialParameters, its version 0");
        assertThat(JobSpecs.problems(ExternalJobs.external()
                        .setInitialParameters(FloatPacking.pack(new float[7]))
                        .build()))
                .containsExactly("initialParameters has 28 bytes, not 4 x parameters = 32");
        final float[] withNaN = new float[8];
        withNaN[5] = Float.NaN;
        assertThat(JobSpecs.problems(ExternalJobs.external()
                        .setInitialParameters(FloatPacking.pack(withNaN))
                        .build()))
                .containsExactly("initialParameters holds a NaN or infinite value at index 5");
    }

    @Test
    void shouldRefuseTensorsWhenNamesRepeatOrDimensionsAreNotPositive() {
        assertThat(JobSpecs.problems(ExternalJobs.external()
                        .setTensors(List.of(new TensorShape("w", List.of(4)), new TensorShape("w", List.of(4))))
                        .build()))
                .containsExactly("tensor names must be non-empty and distinct: 'w'");
        assertThat(JobSpecs.problems(ExternalJobs.external()
                        .setTensors(List.of(new TensorShape("w", List.of(8, 0))))
                        .build()))
                .containsExactly("tensor w has dimension 0 (1 to " + ExternalModels.MAX_PARAMETERS + ")");
    }

    @Test
    void shouldRefuseExternalModelWhenCutIntoStages() {
        assertThat(JobSpecs.problems(ExternalJobs.external()
                        .setStages(2)
                        .setExpectedWorkers(2)
                        .build()))
                .anySatisfy(problem -> assertThat(problem).contains("cannot be cut into pipeline stages"));
    }

    @Test
    void shouldRefuseLayoutWhenModelIsBuiltIn() {
        // given: a built-in model's spec carrying an external layout
        final JobSpec spec =
                ExternalJobs.external().setModel("softmax").setParameters(8).build();

        // when / then
        assertThat(JobSpecs.problems(spec))
                .contains("only an external model carries tensors and initialParameters; model softmax is built in");
    }

    @Test
    void shouldGiveEachShardOnlyItsSliceWhenFannedOut() {
        // given
        final JobSpec spec = ExternalJobs.external().build();

        // when
        final float[] first = ExternalModels.initialShard(ExternalModels.forShard(spec, 0), 0);
        final float[] last = ExternalModels.initialShard(ExternalModels.forShard(spec, 2), 2);

        // then: shards of 3, 3 and 2 values
        assertThat(first).containsExactly(0.5f, 1.5f, 2.5f);
        assertThat(last).containsExactly(6.5f, 7.5f);
        assertThat(ExternalModels.withoutParameters(spec).getInitialParameters())
                .isNull();
        assertThat(spec.getInitialParameters().remaining()).isEqualTo(32);
    }

    @Test
    void shouldRefuseSliceWhenItDoesNotFitItsShard() {
        // given: shard 0's slice offered as shard 2's
        final JobSpec slice = ExternalModels.forShard(ExternalJobs.external().build(), 0);

        // when / then
        assertThatThrownBy(() -> ExternalModels.initialShard(slice, 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds 3 values, not 2");
    }

    @Test
    void shouldAcceptLargestVersionZeroOnJobsTopic() {
        assertThat((long) TopicCatalog.JOBS_MAX_MESSAGE_BYTES).isGreaterThan(4L * ExternalModels.MAX_PARAMETERS);
    }

    @Test
    void shouldRefuseToBuildBuiltInModelWhenModelIsExternal() {
        assertThatThrownBy(() -> JobSpecs.model(ExternalJobs.external().build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("external model");
    }
}
