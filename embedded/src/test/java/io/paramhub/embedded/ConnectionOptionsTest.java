package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.embedded.secure.SaslSslSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ConnectionOptionsTest {

    @Command(name = "test")
    static final class Cmd {
        @Mixin
        ConnectionOptions connection;
    }

    @TempDir
    Path dir;

    @Test
    void shouldLayerFileEnvDefinesAndOptionsWhenAllAreGiven() throws IOException {
        // given
        final Path file = dir.resolve("client.properties");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "bootstrap.servers=file:9092",
                        "security.protocol=SASL_SSL",
                        "sasl.mechanism=SCRAM-SHA-512",
                        "sasl.jaas.config=" + SaslSslSettings.jaas("w", "p"),
                        "schema.registry.url=https://registry:8081",
                        "basic.auth.credentials.source=USER_INFO",
                        "basic.auth.user.info=w:p",
                        "auto.register.schemas=false"));
        final Cmd cmd = new Cmd();
        new CommandLine(cmd)
                .parseArgs(
                        "--config",
                        file.toString(),
                        "-D",
                        "ssl.truststore.location=/certs/cli.p12",
                        "--bootstrap-servers",
                        "option:9093");

        // when
        final Properties settings =
                cmd.connection.settings(Map.of("KAFKA_SSL_TRUSTSTORE_PASSWORD", "env-secret", "KAFKA_HEAP_OPTS", "x"));

        // then
        assertThat(settings)
                .containsEntry("bootstrap.servers", "option:9093")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/certs/cli.p12")
                .containsEntry("ssl.truststore.password", "env-secret")
                .containsEntry("schema.registry.url", "https://registry:8081")
                .containsEntry("basic.auth.user.info", "w:p")
                .containsEntry("auto.register.schemas", "false")
                .doesNotContainKey("heap.opts");
    }

    @Test
    void shouldGiveEveryClientTheSettingsWhenConnectionIsBuiltFromThem() {
        // given
        final Properties settings = new Properties();
        settings.put("bootstrap.servers", "broker:9093");
        settings.put("security.protocol", "SASL_SSL");
        settings.put("sasl.jaas.config", "jaas");
        settings.put("schema.registry.url", "https://registry:8081");
        settings.put("basic.auth.credentials.source", "USER_INFO");
        settings.put("basic.auth.user.info", "w:p");

        // when
        final KafkaConnection connection = KafkaConnection.of(settings);

        // then
        assertThat(connection.client())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", "jaas")
                .doesNotContainKeys("basic.auth.user.info", "schema.registry.url");
        assertThat(connection.streams("app", dir))
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("basic.auth.user.info", "w:p")
                .containsEntry("application.id", "app");
        assertThat(connection.serdes().config())
                .containsEntry("basic.auth.credentials.source", "USER_INFO")
                .containsEntry("basic.auth.user.info", "w:p")
                .doesNotContainKey("security.protocol");
    }
}
