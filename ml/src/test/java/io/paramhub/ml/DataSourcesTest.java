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

    @Test
    void shouldLoadAndCheckAUsersKindWhenItsProviderIsOnTheClasspath() {
        // when
        final TrainTest data = DataSources.load("two-points");

        // then
        assertThat(data.train().size()).isEqualTo(2);
        assertThat(DataSources.forms()).contains("two-points[:<file>]", "csv:<path>", "idx:<images>", "avro:<path>");
        assertThat(DataSources.files("two-points:/data/p.bin")).containsExactly("/data/p.bin");
        assertThatThrownBy(() -> DataSources.files("two-points:/data/p.bin,x=1"))
                .hasMessageContaining("unknown key");
    }

    @Test
    void shouldMakeRelativePathsAbsoluteWhenResolvingASpec() {
        // when / then
        assertThat(DataSources.resolve("csv:data/../wine.csv,label=y,test=t.csv", Path.of("/work")))
                .isEqualTo("csv:/work/wine.csv,label=y,test=/work/t.csv");
        assertThat(DataSources.resolve("fashion-mnist", Path.of("/work"))).isEqualTo("fashion-mnist");
        assertThat(DataSources.resolve("linear:n=10", Path.of("/work"))).isEqualTo("linear:n=10");
    }
}
