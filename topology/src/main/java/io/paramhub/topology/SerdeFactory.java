package io.paramhub.topology;

import io.paramhub.schemas.registry.RegistryClientSettings;
import io.paramhub.schemas.serde.AvroSerdes;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * Builds the Avro value serdes of every topic and store from the client configuration
 * ({@code schema.registry.url} and the other settings {@link RegistryClientSettings} names), so that tests can
 * point them at their own registry.
 */
public final class SerdeFactory {

    private final Map<String, Object> config;

    public SerdeFactory(final Map<String, ?> config) {
        this.config = Map.copyOf(new HashMap<String, Object>(config));
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
}
