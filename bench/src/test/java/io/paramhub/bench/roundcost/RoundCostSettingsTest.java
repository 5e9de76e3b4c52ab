package io.paramhub.bench.roundcost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.ml.Models;
import org.junit.jupiter.api.Test;

class RoundCostSettingsTest {

    @Test
    void shouldReadTheModelsInOrderWhenGivenWithSpacesAndCapitals() {
        assertThat(RoundCostSettings.parseModels(" MLP , softmax,mlp:64")).containsExactly("mlp", "softmax", "mlp:64");
    }

    @Test
    void shouldRefuseNoModelOrAModelTwice() {
        assertThatThrownBy(() -> RoundCostSettings.parseModels(" , "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one model");
        assertThatThrownBy(() -> RoundCostSettings.parseModels("mlp,softmax,MLP"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--models names mlp twice");
    }

    @Test
    void shouldNameAJobWithOnlyWhatAJobNameMayHoldWhenTheModelHasAShape() {
        assertThat(RoundCostSettings.jobName(Models.create("mlp:64", 784, 10), "17"))
                .isEqualTo("round-cost-mlp-64-17");
    }
}
