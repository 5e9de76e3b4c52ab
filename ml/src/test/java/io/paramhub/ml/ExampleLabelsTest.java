package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExampleLabelsTest {

    @Test
    void shouldTakeWholeNumbersAndBooleansAsClassIndicesWhenTheJobNamesNoClasses() {
        // given: 3 classes, labels as numbers
        final ExampleLabels labels = ExampleLabels.of(TopicSpec.parse("topic:t,features=x"), 3);

        // when / then
        assertThat(labels.target("2")).isEqualTo(2f);
        assertThat(labels.target("1.0")).isEqualTo(1f);
        assertThat(labels.target("true")).isEqualTo(1f);
        assertThat(labels.target("false")).isEqualTo(0f);
        assertThatThrownBy(() -> labels.target("3"))
                .isInstanceOfSatisfying(
                        ExampleException.class, e -> assertThat(e.problem()).isEqualTo(ExampleProblem.UNKNOWN_LABEL));
        assertThatThrownBy(() -> labels.target("1.5")).isInstanceOf(ExampleException.class);
        assertThatThrownBy(() -> labels.target("cat")).isInstanceOf(ExampleException.class);
    }

    @Test
    void shouldMapNamesToTheirPlaceWhenTheJobNamesClasses() {
        final ExampleLabels labels = ExampleLabels.of(TopicSpec.parse("topic:t,features=x,labels=cat|dog|owl"), 3);

        assertThat(labels.target("owl")).isEqualTo(2f);
        assertThat(labels.target(" cat ")).isEqualTo(0f);
        assertThatThrownBy(() -> labels.target("cow")).hasMessageContaining("not among the job's classes");
    }

    @Test
    void shouldTakeTheNumberWhenTheTaskIsARegression() {
        final ExampleLabels labels = ExampleLabels.of(TopicSpec.parse("topic:t,features=x,task=regression"), 1);

        assertThat(labels.target("-2.5")).isEqualTo(-2.5f);
        assertThatThrownBy(() -> labels.target("NaN")).isInstanceOf(ExampleException.class);
    }

    @Test
    void shouldLearnTheLargestIndexPlusOneOrTheSortedNamesWhenLearningClasses() {
        assertThat(ExampleLabels.learn(List.of("0", "4", "2"))).isEqualTo(new ExampleLabels.Classes(5, List.of()));
        assertThat(ExampleLabels.learn(List.of("dog", "cat", "dog", "ant")))
                .isEqualTo(new ExampleLabels.Classes(3, List.of("ant", "cat", "dog")));
        assertThat(ExampleLabels.learn(List.of("false", "true"))).isEqualTo(new ExampleLabels.Classes(2, List.of()));
    }
}
