package io.paramhub.topology;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The {@code paramhub.topic.*} settings {@link TopicRetentions} refuses, naming the key. */
class TopicRetentionsTest {

    @Test
    void shouldRefuseARetentionOfACompactedTopic() {
        assertThatThrownBy(() -> TopicRetentions.from(Map.of("paramhub.topic.model.retention.ms", "1000")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("paramhub.topic.model.retention.ms")
                .hasMessageContaining("compacted");
    }

    @Test
    void shouldRefuseARetentionThatIsNotANumber() {
        assertThatThrownBy(() -> TopicRetentions.from(Map.of("paramhub.topic.gradients.retention.bytes", "1GB")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("paramhub.topic.gradients.retention.bytes");
    }

    @Test
    void shouldRefuseARetentionOfZero() {
        assertThatThrownBy(() -> TopicRetentions.from(Map.of("paramhub.topic.telemetry.retention.ms", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("-1 (unlimited) or positive");
    }

    @Test
    void shouldRefuseAnUnknownTopicSetting() {
        assertThatThrownBy(() -> TopicRetentions.from(Map.of("paramhub.topic.gradients.segment.bytes", "1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("paramhub.topic.gradients.segment.bytes");
    }
}
