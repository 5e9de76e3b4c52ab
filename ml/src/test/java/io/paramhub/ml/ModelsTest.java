package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Tests creating models by kind. */
class ModelsTest {

    @Test
    void shouldCreateModelOfRightShapeWhenKindIsKnown() {
        // when
        final Model softmax = Models.create("softmax", 784, 10);
        final Model linear = Models.create("LINEAR", 16, 1);

        // then
        assertThat(softmax.kind()).isEqualTo("softmax");
        assertThat(softmax.parameterCount()).isEqualTo(7850);
        assertThat(linear.kind()).isEqualTo("linear");
        assertThat(linear.parameterCount()).isEqualTo(17);
        assertThat(linear.outputs()).isEqualTo(1);
    }

    @Test
    void shouldListKnownKindsWhenKindIsUnknown() {
        // when / then
        assertThatThrownBy(() -> Models.create("forest", 784, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cnn")
                .hasMessageContaining("linear")
                .hasMessageContaining("softmax");
    }

    @Test
    void shouldRejectLinearModelWhenOutputsAreNotOne() {
        // when / then
        assertThatThrownBy(() -> Models.create("linear", 4, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
