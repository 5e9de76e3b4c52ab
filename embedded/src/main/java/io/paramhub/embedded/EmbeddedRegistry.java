package io.paramhub.embedded;

import io.paramhub.embedded.secure.LocalSecrets;
import io.paramhub.registry.RegistryAccess;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.registry.RegistryClientSettings;
import java.util.HashMap;
import java.util.Map;

/**
 * The schema registry of an {@link EmbeddedKafka} or of {@link BrokerProcesses}, in the same JVM, keeping its
 * schemas in the brokers' {@code _schemas} topic: plain HTTP, or with {@link LocalSecrets} HTTPS and basic auth,
 * reaching the broker as its admin.
 */
public final class EmbeddedRegistry {

    private static final String SCHEMAS_TOPIC = "_schemas";
    private static final String HOST = "127.0.0.1";

    private EmbeddedRegistry() {}

    /** A plain-HTTP registry on {@code port} (0: any free one) for the brokers at {@code bootstrapServers}. */
    public static SchemaRegistryServer start(final String bootstrapServers, final int port) {
        return SchemaRegistryServer.start(bootstrapServers, HOST, port);
    }

    /** A registry on {@code port} (0: any free one) for {@code kafka}; secured when {@code secrets} is not null. */
    public static SchemaRegistryServer start(final EmbeddedKafka kafka, final LocalSecrets secrets, final int port) {
        if (secrets == null) {
            return SchemaRegistryServer.start(kafka.bootstrapServers(), HOST, port);
        }
        final Map<String, Object> kafkaClient = new HashMap<>();
        secrets.clientSettings(kafka.bootstrapServers(), "unused").forEach((key, value) -> {
            if (!RegistryClientSettings.isRegistrySetting(key.toString())) {
                kafkaClient.put(key.toString(), value);
            }
        });
        final RegistryAccess access = RegistryAccess.withPasswords(
                secrets.certificates().keyStore(),
                secrets.certificates().password(),
                Map.of(LocalSecrets.REGISTRY_USER, secrets.registryPassword()));
        return SchemaRegistryServer.start(kafkaClient, SCHEMAS_TOPIC, HOST, port, access);
    }
}
