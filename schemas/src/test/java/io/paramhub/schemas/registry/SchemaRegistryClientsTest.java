package io.paramhub.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchemaRegistryClientsTest {

    private static final String SCOPE = "clients-test";

    @AfterEach
    void dropScope() {
        SchemaRegistryClients.dropScope(SCOPE);
    }

    @Test
    void shouldShareInMemoryClientWhenUrlIsSameMockScope() {
        // given
        final Map<String, String> config = Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);

        // when
        final SchemaRegistryClient first = SchemaRegistryClients.fromConfig(config);
        final SchemaRegistryClient second = SchemaRegistryClients.fromConfig(config);

        // then
        assertThat(first).isInstanceOf(InMemorySchemaRegistryClient.class).isSameAs(second);
    }

    @Test
    void shouldStartEmptyWhenScopeWasDropped() {
        // given
        final Map<String, String> config = Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);
        final SchemaRegistryClient before = SchemaRegistryClients.fromConfig(config);
        before.register("jobs-value", JobSpec.getClassSchema());

        // when
        SchemaRegistryClients.dropScope(SCOPE);
        final SchemaRegistryClient after = SchemaRegistryClients.fromConfig(config);

        // then
        assertThat(after).isNotSameAs(before);
        assertThatThrownBy(() -> after.schemaById(1)).isInstanceOf(SchemaRegistryException.class);
    }

    @Test
    void shouldCacheHttpClientWhenUrlIsSame() {
        // given
        final Map<String, Object> config = Map.of(
                SchemaRegistryConfig.SCHEMA_REGISTRY_URL, List.of("http://registry-a:8081", "http://registry-b:8081"));

        // when
        final SchemaRegistryClient first = SchemaRegistryClients.fromConfig(config);
        final SchemaRegistryClient second = SchemaRegistryClients.fromConfig(config);

        // then
        assertThat(first).isInstanceOf(HttpSchemaRegistryClient.class).isSameAs(second);
        assertThat(((HttpSchemaRegistryClient) first).baseUrls())
                .containsExactly("http://registry-a:8081", "http://registry-b:8081");
    }

    @Test
    void shouldGiveEachScopeItsOwnHttpClientWhenUrlIsSame() {
        // given: two runs in one JVM whose registries answered at the same URL, one after the other
        final String url = "http://127.0.0.1:18081";
        final Object firstRun = new Object();
        final Object secondRun = new Object();

        // when
        final SchemaRegistryClient first = SchemaRegistryClients.fromConfig(
                Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, url, SchemaRegistryConfig.CLIENT_SCOPE, firstRun));
        final SchemaRegistryClient firstAgain = SchemaRegistryClients.fromConfig(
                Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, url, SchemaRegistryConfig.CLIENT_SCOPE, firstRun));
        final SchemaRegistryClient second = SchemaRegistryClients.fromConfig(
                Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, url, SchemaRegistryConfig.CLIENT_SCOPE, secondRun));
        final SchemaRegistryClient unscoped =
                SchemaRegistryClients.fromConfig(Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, url));

        // then: no run trusts the ids another one cached
        assertThat(first).isSameAs(firstAgain);
        assertThat(second).isNotSameAs(first);
        assertThat(unscoped).isNotSameAs(first).isNotSameAs(second);
    }

    @Test
    void shouldNameTheSettingWhenUrlIsMissing() {
        // when / then
        assertThatThrownBy(() -> SchemaRegistryClients.fromConfig(Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(SchemaRegistryConfig.SCHEMA_REGISTRY_URL);
    }

    @Test
    void shouldRejectWhenCredentialsSourceIsNotUserInfo() {
        // given
        final Map<String, String> config = Map.of(
                SchemaRegistryConfig.SCHEMA_REGISTRY_URL,
                "http://registry:8081",
                SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
                "SASL_INHERIT");

        // when / then
        assertThatThrownBy(() -> SchemaRegistryClients.fromConfig(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE);
    }
}
