package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** A Streams app's processing guarantee as {@link StreamsAppLauncher#settings} checks it ({@link ExactlyOnce}). */
class ExactlyOnceTest {

    private static Properties given(final String... keyValues) {
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "kafka:9092");
        props.put("schema.registry.url", "http://registry:8081");
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    @Test
    void shouldRunExactlyOnceWhenNothingIsSaid() {
        // given
        final Properties given = given();

        // when
        final Properties settings = StreamsAppLauncher.settings("app", given);

        // then
        assertThat(settings).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    }

    @Test
    void shouldRefuseAtLeastOnceNamingTheSettingAndTheOverride() {
        // given
        final Properties given = given(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);

        // when / then
        assertThatThrownBy(() -> StreamsAppLauncher.settings("app", given))
                .isInstanceOfSatisfying(
                        SettingException.class,
                        e -> assertThat(e.setting()).isEqualTo(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
                .hasMessageContaining("processing.guarantee is at_least_once, and ParamHub needs exactly_once_v2")
                .hasMessageContaining("paramhub.accept.at.least.once=true")
                .hasMessageContaining("KAFKA_PARAMHUB_ACCEPT_AT_LEAST_ONCE");
    }

    @Test
    void shouldRunAtLeastOnceWhenExplicitlyAccepted() {
        // given
        final Properties given = given(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                StreamsConfig.AT_LEAST_ONCE,
                ExactlyOnce.ACCEPT_CONFIG,
                "true");

        // when
        final Properties settings = StreamsAppLauncher.settings("app", given);

        // then
        assertThat(settings).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
    }

    @Test
    void shouldStillRefuseAtLeastOnceWhenTheOverrideIsFalse() {
        // given
        final Properties given = given(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                StreamsConfig.AT_LEAST_ONCE,
                ExactlyOnce.ACCEPT_CONFIG,
                "false");

        // when / then
        assertThatThrownBy(() -> StreamsAppLauncher.settings("app", given)).isInstanceOf(SettingException.class);
    }

    @Test
    void shouldRefuseAnOverrideThatIsNeitherTrueNorFalse() {
        // given
        final Properties given = given(ExactlyOnce.ACCEPT_CONFIG, "yes");

        // when / then
        assertThatThrownBy(() -> StreamsAppLauncher.settings("app", given))
                .isInstanceOfSatisfying(
                        SettingException.class, e -> assertThat(e.setting()).isEqualTo(ExactlyOnce.ACCEPT_CONFIG))
                .hasMessageContaining("must be true or false, not 'yes'");
    }

    @Test
    void shouldAcceptExactlyOnceGivenExplicitly() {
        // given
        final Properties given = given(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);

        // when / then
        assertThatCode(() -> StreamsAppLauncher.settings("app", given)).doesNotThrowAnyException();
    }
}
