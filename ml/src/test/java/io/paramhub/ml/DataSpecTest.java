package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tests taking a data spec apart. */
class DataSpecTest {

    @Test
    void shouldSplitKindPositionalArgumentsAndOptionsWhenParsing() {
        // when
        final DataSpec spec = DataSpec.parse(" CSV: data/wine.csv, label=target,holdout=0.2 ");

        // then
        assertThat(spec.kind()).isEqualTo("csv");
        assertThat(spec.positional()).containsExactly("data/wine.csv");
        final DataOptions options = spec.options(Set.of("label", "holdout"));
        assertThat(options.text("label", null)).isEqualTo("target");
        assertThat(options.doubleValue("holdout", 0)).isEqualTo(0.2);
        assertThat(spec).hasToString("csv:data/wine.csv,label=target,holdout=0.2");
    }

    @Test
    void shouldResolveOnlyPathsWhenMappingThem() {
        // given
        final DataSpec spec = DataSpec.parse("csv:a.csv,label=b.csv,test=t.csv");

        // when
        final DataSpec mapped = spec.mapPaths(Set.of("test"), path -> "/d/" + path);

        // then
        assertThat(mapped).hasToString("csv:/d/a.csv,label=b.csv,test=/d/t.csv");
        assertThat(spec.paths(Set.of("test"))).containsExactly("a.csv", "t.csv");
    }

    @Test
    void shouldNameTheProblemWhenArgumentsAreMalformed() {
        // when / then
        assertThatThrownBy(() -> DataSpec.parse("csv:a.csv,,label=y")).hasMessageContaining("empty argument");
        assertThatThrownBy(() -> DataSpec.parse("  ")).hasMessageContaining("empty");
        assertThatThrownBy(() -> DataSpec.parse("csv:a.csv,lable=y").options(Set.of("label")))
                .hasMessageContaining("unknown key 'lable', known keys: label");
        assertThatThrownBy(() -> DataSpec.parse("csv:a.csv,label=y,label=z").options(Set.of("label")))
                .hasMessageContaining("key 'label' given twice");
        assertThatThrownBy(() -> DataSpec.parse("csv:a.csv,header=yes")
                        .options(Set.of("header"))
                        .bool("header", true))
                .hasMessageContaining("bad value for header: 'yes'");
    }
}
