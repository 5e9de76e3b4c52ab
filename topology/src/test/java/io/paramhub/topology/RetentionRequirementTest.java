package io.paramhub.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@link RetentionRequirement} finds wrong with the configs of the topics restore and replay read. */
class RetentionRequirementTest {

    @Test
    void shouldAcceptGradientsWithTheDefaultRetention() {
        // given
        final Map<String, String> configs =
                Map.of("cleanup.policy", "delete", "retention.ms", "86400000", "retention.bytes", "1073741824");

        // when
        final List<String> problems = RetentionRequirement.gradients().problems("paramhub.gradients", configs);

        // then
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldNameTopicSettingAndMinimumWhenGradientsAreKeptTooBriefly() {
        // given
        final Map<String, String> configs =
                Map.of("cleanup.policy", "delete", "retention.ms", "600000", "retention.bytes", "-1");

        // when
        final List<String> problems = RetentionRequirement.gradients().problems("paramhub.gradients", configs);

        // then
        assertThat(problems)
                .singleElement()
                .asString()
                .contains("paramhub.gradients")
                .contains("retention.ms is 600000")
                .contains("minimum is 3600000");
    }

    @Test
    void shouldRefuseGradientsKeptInTooFewBytes() {
        // given
        final Map<String, String> configs =
                Map.of("cleanup.policy", "delete", "retention.ms", "-1", "retention.bytes", "1048576");

        // when
        final List<String> problems = RetentionRequirement.gradients().problems("paramhub.gradients", configs);

        // then
        assertThat(problems)
                .singleElement()
                .asString()
                .contains("retention.bytes is 1048576")
                .contains("minimum is " + RetentionRequirement.GRADIENTS_MIN_RETENTION_BYTES);
    }

    @Test
    void shouldAcceptACompactedModelWhateverItsRetentionMs() {
        // given: retention.ms does not apply to compact alone
        final Map<String, String> configs = Map.of("cleanup.policy", "compact", "retention.ms", "1000");

        // when
        final List<String> problems =
                RetentionRequirement.compactedState("state").problems("paramhub.model", configs);

        // then
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldRefuseAChangelogThatAlsoDeletesByTime() {
        // given
        final Map<String, String> configs =
                Map.of("cleanup.policy", "compact,delete", "retention.ms", "86400000", "retention.bytes", "-1");

        // when
        final List<String> problems =
                RetentionRequirement.compactedState("state").problems("app-store-changelog", configs);

        // then
        assertThat(problems)
                .singleElement()
                .asString()
                .contains("app-store-changelog")
                .contains("retention.ms is 86400000")
                .contains("-1 (unlimited)");
    }

    @Test
    void shouldRefuseAModelThatIsNotCompacted() {
        // given
        final Map<String, String> configs = Map.of("cleanup.policy", "delete", "retention.ms", "-1");

        // when
        final List<String> problems =
                RetentionRequirement.compactedState("state").problems("paramhub.model", configs);

        // then
        assertThat(problems).singleElement().asString().contains("must include compact");
    }
}
