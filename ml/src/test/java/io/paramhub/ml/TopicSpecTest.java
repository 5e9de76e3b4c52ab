package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopicSpecTest {

    @Test
    void shouldReadEveryOptionWhenParsingAndWriteTheSameSpecBack() {
        // given
        final String text = "topic:readings,features=a+b+c,label=kind,labels=cat|dog,max-examples=500,"
                + "ends=10|20,window=100,linger-ms=5";

        // when
        final TopicSpec spec = TopicSpec.parse(text);

        // then
        assertThat(spec.topic()).isEqualTo("readings");
        assertThat(spec.features()).containsExactly("a", "b", "c");
        assertThat(spec.label()).isEqualTo("kind");
        assertThat(spec.labels()).containsExactly("cat", "dog");
        assertThat(spec.maxExamples()).isEqualTo(500);
        assertThat(spec.ends()).containsExactly(10L, 20L);
        assertThat(spec.window()).isEqualTo(100);
        assertThat(spec.lingerMs()).isEqualTo(5);
        assertThat(spec.bounded()).isTrue();
        assertThat(TopicSpec.parse(spec.toString())).isEqualTo(spec);
    }

    @Test
    void shouldTakeDefaultsAndRunForeverWhenOnlyTheFeaturesAreGiven() {
        final TopicSpec spec = TopicSpec.parse("topic:t,features=x");

        assertThat(spec.label()).isEqualTo("label");
        assertThat(spec.window()).isEqualTo(TopicSpec.DEFAULT_WINDOW);
        assertThat(spec.bounded()).isFalse();
        assertThat(spec.toString()).isEqualTo("topic:t,features=x,label=label");
    }

    @Test
    void shouldNameTheProblemWhenTheSpecIsMalformed() {
        assertThatThrownBy(() -> TopicSpec.parse("topic:t")).hasMessageContaining("features=");
        assertThatThrownBy(() -> TopicSpec.parse("topic:bad/name,features=x")).hasMessageContaining("topic name");
        assertThatThrownBy(() -> TopicSpec.parse("topic:t,features=x,ends=5|x")).hasMessageContaining("ends=");
        assertThatThrownBy(() -> TopicSpec.parse("topic:t,features=x,labels=one"))
                .hasMessageContaining("labels=");
        assertThatThrownBy(() -> TopicSpec.parse("topic:t,features=x,task=regression,labels=a|b"))
                .hasMessageContaining("regression");
        assertThatThrownBy(() -> TopicSpec.parse("topic:t,features=x,max-examples=0"))
                .hasMessageContaining("max-examples");
        assertThatThrownBy(() -> TopicSpec.parse("topic:t,features=x,until-end=true"))
                .hasMessageContaining("unknown key 'until-end'");
    }

    @Test
    void shouldBeAKnownKindThatNamesNoFileAndLoadsNothingWhenGivenToDataSources() {
        assertThat(DataSources.files("topic:t,features=x")).isEmpty();
        assertThat(DataSources.resolve("topic:t,features=x", Path.of("/tmp"))).isEqualTo("topic:t,features=x");
        assertThatThrownBy(() -> DataSources.load("topic:t,features=x")).hasMessageContaining("stream");
        assertThat(TopicSpec.isTopic("topic:t,features=x")).isTrue();
        assertThat(TopicSpec.isTopic("fashion-mnist")).isFalse();
        assertThat(new TopicSpec("t", List.of("x"), "y", List.of(), false, -1, List.of(), 9, 50).toString())
                .isEqualTo("topic:t,features=x,label=y,window=9");
    }
}
