package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import org.junit.jupiter.api.Test;

class JobSpecsTest {

    @Test
    void shouldRaiseTheShardsWhenTheModelOutgrowsTheRecordBudget() {
        // given: 1,333,770 parameters, 5.1 MiB of float32
        final Model model = Models.create("mlp:1024,512", 784, 10);

        // when
        final JobSpec.Builder spec = JobSpecs.forModel(model, 4);

        // then: ceil(5,335,080 B / 256 KiB) shards, the model's own shape
        assertThat(spec.getShards()).isEqualTo(21);
        assertThat(spec.getParameters()).isEqualTo(model.parameterCount());
        assertThat(spec.getModel()).isEqualTo("mlp:1024,512");
        assertThat(spec.getInputs()).isEqualTo(784);
        assertThat(spec.getOutputs()).isEqualTo(10);
    }

    @Test
    void shouldKeepTheRequestedShardsWhenTheModelFits() {
        // given
        final Model model = Models.create("linear", 16, 1);

        // when
        final JobSpec.Builder spec = JobSpecs.forModel(model, 4);

        // then
        assertThat(spec.getShards()).isEqualTo(4);
        assertThat(spec.getParameters()).isEqualTo(17);
    }
}
