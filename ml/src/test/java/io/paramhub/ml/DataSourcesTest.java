package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests parsing data spec strings. */
class DataSourcesTest {

    @TempDir
    Path dir;

    @Test
    void shouldUseDefaultsWhenLinearSpecHasNoKeys() {
        // when
        final TrainTest data = DataSources.load("linear");

        // then
        assertThat(data.train().size()).isEqualTo(4096);
        assertThat(data.train().features()).isEqualTo(16);
        assertThat(data.train().y())
                .containsExactly(
                        LinearProblem.generate(4096, 16, 0.1, 7).data().train().y());
    }

    @Test
    void shouldApplyKeysWhenLinearSpecHasThem() {
        // when
        final LinearProblem problem = DataSources.linearProblem("linear:n=200, d=3,noise=0.5,seed=11");

        // then
        assertThat(problem.data().train().size()).isEqualTo(200);
        assertThat(problem.data().test().size()).isEqualTo(50);
        assertThat(problem.features()).isEqualTo(3);
        assertThat(problem.noise()).isEqualTo(0.5);
        assertThat(problem.optimum())
                .containsExactly(LinearProblem.generate(200, 3, 0.5, 11).optimum());
    }

    @Test
    void shouldListFormsWhenSpecIsUnknown() {
        // when / then
        assertThatThrownBy(() -> DataSources.load("mnist"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fashion-mnist:<dir>")
                .hasMessageContaining("linear:n=");
        assertThatThrownBy(() -> DataSources.load("linear:m=3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown key");
        assertThatThrownBy(() -> DataSources.load("linear:n=many"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad value");
        assertThatThrownBy(() -> DataSources.linearProblem("fashion-mnist"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldLoadFromGivenDirectoryWhenFashionMnistSpecHasOne() {
        // when / then
        assertThatThrownBy(() -> DataSources.load("fashion-mnist:" + dir))
                .isInstanceOf(DatasetUnavailableException.class)
                .hasMessageContaining(dir.toString());
    }
}
