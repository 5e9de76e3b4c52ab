package io.paramhub.topology;

import io.paramhub.schemas.registry.RegistryClientSettings;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.serde.AvroSerdes;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * Builds the Avro value serdes of every topic and store from the client configuration
 * ({@code schema.registry.url} and the other settings {@link RegistryClientSettings} names), so that tests can
 * point them at their own registry. The serdes of one factory share one registry client and its cache
 * ({@link SchemaRegistryConfig#CLIENT_SCOPE}): another factory, even on the same URL, asks the registry again.
 */
public final class SerdeFactory {

    private final Map<String, Object> config;

    public SerdeFactory(final Map<String, ?> config) {
        final Map<String, Object> scoped = new HashMap<>(config);
        scoped.putIfAbsent(SchemaRegistryConfig.CLIENT_SCOPE, new ClientScope());
        this.config = Map.copyOf(scoped);
    }

    /** A serde for registry {@code url}: an HTTP registry, or {@code mock://scope} for an in-memory one. */
    public static SerdeFactory forRegistry(final String url) {
        return new SerdeFactory(Map.of("schema.registry.url", url));
    }

    /** The serdes of the registry client settings among an app's {@code settings}, passed on unchanged. */
    public static SerdeFactory fromSettings(final Map<?, ?> settings) {
        return new SerdeFactory(RegistryClientSettings.of(settings));
    }

    /** The settings every serde is configured with. */
    public Map<String, Object> config() {
        return config;
    }

    public <T extends SpecificRecord> Serde<T> valueSerde(final Class<T> type) {
        return AvroSerdes.of(type, config, false);
    }

    /** Names the registry client of one factory's serdes; equal only to itself. */
    private static final class ClientScope {
        @Override
        public String toString() {
            return "registry client scope " + Integer.toHexString(System.identityHashCode(this));
        }
    }
}
