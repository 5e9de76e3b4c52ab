package io.paramhub.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryClientSettingsTest {

    @Test
    void shouldKeepEveryRegistrySettingUnchangedWhenPickingThem() {
        // given
        final Map<String, String> settings = Map.of(
                "schema.registry.url", "https://registry:8081",
                "schema.registry.ssl.truststore.location", "/certs/truststore.p12",
                "schema.registry.ssl.truststore.password", "changeit",
                "basic.auth.credentials.source", "USER_INFO",
                "basic.auth.user.info", "worker:secret",
                "auto.register.schemas", "false",
                "use.latest.version", "true",
                "security.protocol", "SASL_SSL",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "bootstrap.servers", "broker:9093");

        // when
        final Map<String, Object> registry = RegistryClientSettings.of(settings);

        // then
        assertThat(registry)
                .containsOnlyKeys(
                        "schema.registry.url",
                        "schema.registry.ssl.truststore.location",
                        "schema.registry.ssl.truststore.password",
                        "basic.auth.credentials.source",
                        "basic.auth.user.info",
                        "auto.register.schemas",
                        "use.latest.version")
                .containsEntry("basic.auth.user.info", "worker:secret")
                .containsEntry("schema.registry.ssl.truststore.password", "changeit")
                .containsEntry("auto.register.schemas", "false");
    }

    @Test
    void shouldReadTrustStoreWhenLocationIsGiven() {
        // given
        final Map<String, String> config = Map.of(
                SchemaRegistryConfig.SSL_TRUSTSTORE_LOCATION, "/certs/truststore.jks",
                SchemaRegistryConfig.SSL_TRUSTSTORE_PASSWORD, "changeit",
                SchemaRegistryConfig.SSL_TRUSTSTORE_TYPE, "JKS");

        // when
        final RegistryTrustStore store = RegistryTrustStore.fromConfig(config);

        // then
        assertThat(store).isEqualTo(new RegistryTrustStore("/certs/truststore.jks", "changeit", "JKS"));
        assertThat(store.toString()).doesNotContain("changeit");
        assertThat(RegistryTrustStore.fromConfig(Map.of())).isNull();
    }
}
