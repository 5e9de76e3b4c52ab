package io.paramhub.schemas.registry;

import java.util.HashMap;
import java.util.Map;

/**
 * Which of an app's settings are the schema registry client's, as Confluent's serdes name them:
 * {@code schema.registry.*} (URL, TLS trust store), {@code basic.auth.*}, {@code auto.register.schemas} and
 * {@code use.latest.version}. They reach the serdes unchanged; a plain Kafka client does not need them.
 */
public final class RegistryClientSettings {

    private RegistryClientSettings() {}

    /** Whether {@code key} is one of the registry client's settings. */
    public static boolean isRegistrySetting(final String key) {
        return key.startsWith("schema.registry.")
                || key.startsWith("basic.auth.")
                || key.equals(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS)
                || key.equals(SchemaRegistryConfig.USE_LATEST_VERSION);
    }

    /** The registry client's settings among {@code settings}, values unchanged. */
    public static Map<String, Object> of(final Map<?, ?> settings) {
        final Map<String, Object> registry = new HashMap<>();
        settings.forEach((key, value) -> {
            if (isRegistrySetting(key.toString())) {
                registry.put(key.toString(), value);
            }
        });
        return registry;
    }
}
