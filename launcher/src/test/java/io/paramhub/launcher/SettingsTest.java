package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void shouldMapKafkaVariablesAsTheKafkaImageDoesWhenNamesHaveDotsDashesAndUnderscores() {
        // given
        final Map<String, String> names = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "bootstrap.servers",
                "KAFKA_SCHEMA_REGISTRY_URL", "schema.registry.url",
                "KAFKA_PRODUCER_LINGER_MS", "producer.linger.ms",
                "KAFKA_SOME__UNDERSCORED_NAME", "some_underscored.name",
                "KAFKA_A___DASHED_NAME", "a-dashed.name");

        // when / then
        names.forEach((env, key) -> {
            assertThat(Settings.kafkaKey(env)).as(env).isEqualTo(key);
            assertThat(Settings.kafkaEnv(key)).as(key).isEqualTo(env);
        });
    }

    @Test
    void shouldMapNothingWhenAVariableIsNotAKafkaSetting() {
        // given / when / then
        assertThat(Settings.kafkaKey("KAFKA_HEAP_OPTS")).isNull();
        assertThat(Settings.kafkaKey("KAFKA_")).isNull();
        assertThat(Settings.kafkaKey("PARAMHUB_HTTP_PORT")).isNull();
        assertThat(Settings.kafkaKey("PATH")).isNull();
    }

    @Test
    void shouldNameOptionsInTheEnvironmentAndFileWhenGivenAnOption() {
        // given / when / then
        assertThat(Settings.optionEnv("--http-port")).isEqualTo("PARAMHUB_HTTP_PORT");
        assertThat(Settings.optionKey("--http-port")).isEqualTo("paramhub.http.port");
        assertThat(Settings.optionEnv("--no-create-topics")).isEqualTo("PARAMHUB_CREATE_TOPICS");
        assertThat(Settings.optionKey("--sample-cost-us")).isEqualTo("paramhub.sample.cost.us");
    }

    @Test
    void shouldLayerFileThenEnvironmentThenDashDThenOptionsWhenASettingIsGivenEverywhere() {
        // given
        final Properties file = new Properties();
        file.setProperty("bootstrap.servers", "file:9092");
        file.setProperty("commit.interval.ms", "100");
        file.setProperty("linger.ms", "7");
        file.setProperty("client.id", "from-file");
        file.setProperty("paramhub.http.port", "9000");
        final Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "env:9092",
                "KAFKA_COMMIT_INTERVAL_MS", "50",
                "KAFKA_LINGER_MS", "3",
                "PARAMHUB_HTTP_PORT", "9001",
                "HOME", "/root");
        final Map<String, String> dashD = Map.of("bootstrap.servers", "dashd:9092", "commit.interval.ms", "20");
        final Map<String, String> options = new HashMap<>();
        options.put("bootstrap.servers", "option:9092");
        options.put("state.dir", null);

        // when
        final Properties props = Settings.kafka(file, env, dashD, options, Set.of("paramhub.http.port"));

        // then
        assertThat(props)
                .containsEntry("bootstrap.servers", "option:9092")
                .containsEntry("commit.interval.ms", "20")
                .containsEntry("linger.ms", "3")
                .containsEntry("client.id", "from-file")
                .doesNotContainKey("state.dir")
                .doesNotContainKey("paramhub.http.port")
                .doesNotContainKey("home");
    }

    @Test
    void shouldTakeAnOptionFromTheEnvironmentOverTheFileWhenBothGiveIt() {
        // given
        final Properties file = new Properties();
        file.setProperty("paramhub.http.port", "9000");
        file.setProperty("paramhub.topic.prefix", "file.");

        // when
        final String port = Settings.option("--http-port", Map.of("PARAMHUB_HTTP_PORT", "9001"), file);
        final String prefix = Settings.option("--topic-prefix", Map.of(), file);
        final String job = Settings.option("--job", Map.of(), file);

        // then
        assertThat(port).isEqualTo("9001");
        assertThat(prefix).isEqualTo("file.");
        assertThat(job).isNull();
    }
}
