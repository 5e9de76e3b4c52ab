package io.paramhub.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.ResourceCommand;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class SerdeFactoryTest {

    @Test
    void shouldGiveSerdesEveryRegistrySettingWhenBuiltFromAppSettings() {
        // given
        final Properties settings = new Properties();
        settings.put("bootstrap.servers", "broker:9093");
        settings.put("security.protocol", "SASL_SSL");
        settings.put("schema.registry.url", "https://registry:8081");
        settings.put("schema.registry.ssl.truststore.location", "/certs/truststore.p12");
        settings.put("basic.auth.credentials.source", "USER_INFO");
        settings.put("basic.auth.user.info", "worker:secret");
        settings.put("auto.register.schemas", "false");
        settings.put("use.latest.version", "true");

        // when
        final SerdeFactory serdes = SerdeFactory.fromSettings(settings);

        // then
        assertThat(serdes.config())
                .containsEntry("schema.registry.url", "https://registry:8081")
                .containsEntry("schema.registry.ssl.truststore.location", "/certs/truststore.p12")
                .containsEntry("basic.auth.credentials.source", "USER_INFO")
                .containsEntry("basic.auth.user.info", "worker:secret")
                .containsEntry("auto.register.schemas", "false")
                .containsEntry("use.latest.version", "true")
                .doesNotContainKeys("security.protocol", "bootstrap.servers");
    }

    @Test
    void shouldNotRegisterSchemasWhenAutoRegisterIsOffInAppSettings() {
        // given
        final String scope = "serde-factory-" + UUID.randomUUID();
        final Properties settings = new Properties();
        settings.put("schema.registry.url", "mock://" + scope);
        settings.put("auto.register.schemas", "false");
        final Serde<ResourceCommand> serde = SerdeFactory.fromSettings(settings).valueSerde(ResourceCommand.class);

        // when / then
        try {
            assertThatThrownBy(() -> serde.serializer().serialize("commands", command()))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("looking up");
            assertThat(SchemaRegistryClients.mockScope(scope).versions("commands-value"))
                    .isEmpty();
        } finally {
            SchemaRegistryClients.dropScope(scope);
        }
    }

    @Test
    void shouldKeepEachFactorysRegistryAnswersApartWhenUrlIsSame() {
        // given: two runs of one JVM on a registry URL that another registry may have answered at before
        final SerdeFactory firstRun = SerdeFactory.forRegistry("http://127.0.0.1:18082");
        final SerdeFactory secondRun = SerdeFactory.forRegistry("http://127.0.0.1:18082");

        // when
        final var first = SchemaRegistryClients.fromConfig(firstRun.config());
        final var firstAgain = SchemaRegistryClients.fromConfig(firstRun.config());
        final var second = SchemaRegistryClients.fromConfig(secondRun.config());

        // then: a factory's serdes share one client, and its cache of ids is not the other run's
        assertThat(first).isSameAs(firstAgain);
        assertThat(second).isNotSameAs(first);
    }

    private static ResourceCommand command() {
        return ResourceCommand.newBuilder()
                .setJob("j")
                .setWorker("worker-000")
                .setEpoch(1)
                .setThreads(1)
                .setBatchShare(1.0)
                .setReason("test")
                .setSpeeds(Map.of())
                .setIssuedAt(Instant.EPOCH)
                .build();
    }
}
