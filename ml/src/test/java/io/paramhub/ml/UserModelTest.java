package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.ml.example.HuberRegression;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests the worked example of docs/models.md: a user's model found through {@link ModelProvider}. */
class UserModelTest {

    @Test
    void shouldCreateUserModelWhenProviderIsOnClasspath() {
        // given / when
        final Model model = Models.create("huber:0.5", 16, 1);

        // then
        assertThat(model).isInstanceOf(HuberRegression.class);
        assertThat(model.kind()).isEqualTo("huber:0.5");
        assertThat(Models.create(model.kind(), 16, 1).parameterCount()).isEqualTo(17);
    }

    @Test
    void shouldMatchFiniteDifferencesWhenUserModelIsDifferentiated() {
        // given: residuals on both sides of delta
        final Random random = new Random(32);
        final Dataset data = LinearProblem.generate(64, 5, 2.0, 3).data().train();
        final Model model = Models.create("huber:0.5", 5, 1);
        final float[] params = GradientCheck.gaussian(random, model.parameterCount(), 0.5);

        // when / then
        GradientCheck.assertGradientMatchesFiniteDifferences(model, params, data, new int[] {0, 1, 2, 3, 4, 5, 6, 7});
    }

    @Test
    void shouldListProvidedKindsWhenKindIsUnknown() {
        // given / when / then
        assertThatThrownBy(() -> Models.create("forest", 4, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("huber")
                .hasMessageContaining("cnn");
    }
}
