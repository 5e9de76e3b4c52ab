package io.paramhub.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StreamSettingsTest {

    @Test
    void shouldStreamTheTrainingSetOnceAtAThousandASecondWhenGivenNothingElse() {
        // when
        final StreamSettings settings = StreamSettings.of("linear", "examples");

        // then
        assertThat(settings.testSet()).isFalse();
        assertThat(settings.rate()).isEqualTo(1000);
        assertThat(settings.count()).isEmpty();
        assertThat(settings.loop()).isFalse();
        assertThat(settings.driftAt()).isEmpty();
        assertThat(settings.partitions()).isEqualTo(4);
        assertThat(settings.seed()).isEqualTo(7);
    }

    @Test
    void shouldRefuseANegativeRateCountOrDriftPointNamingTheOption() {
        final StreamSettings settings = StreamSettings.of("linear", "examples");
        assertThatThrownBy(() -> settings.withRate(-5)).hasMessageStartingWith("--rate must be");
        assertThatThrownBy(() -> settings.withRate(Double.NaN)).hasMessageStartingWith("--rate must be");
        assertThatThrownBy(() -> settings.withCount(-1)).hasMessage("--count must be >= 0, not -1");
        assertThatThrownBy(() -> settings.withDriftAt(-1)).hasMessage("--drift-at must be >= 0, not -1");
        assertThatThrownBy(() -> settings.withPartitions(0)).hasMessage("--partitions must be >= 1, not 0");
        assertThatThrownBy(() -> settings.withTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StreamSettings.of(" ", "examples")).hasMessage("--dataset must name a data set");
        assertThatThrownBy(() -> StreamSettings.of("linear", "")).hasMessage("--topic must name a topic");
    }

    @Test
    void shouldWordTimeoutsInSeconds() {
        assertThat(StreamSettings.seconds(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(StreamSettings.seconds(Duration.ofMillis(1500))).isEqualTo("1.5 s");
    }
}
