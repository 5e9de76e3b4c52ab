package io.paramhub.registry;

import java.nio.file.Path;
import java.util.Map;

/**
 * Who may reach the registry's REST API, and how: TLS with the certificate of a PKCS12 key store (none: plain
 * HTTP), and HTTP basic authentication against {@code users}, name to password (empty: anyone).
 */
public record RegistryAccess(Path keyStore, String keyStorePassword, Map<String, String> users) {

    public RegistryAccess {
        users = Map.copyOf(users);
    }

    /** Plain HTTP, no authentication. */
    public static RegistryAccess open() {
        return new RegistryAccess(null, null, Map.of());
    }

    public boolean tls() {
        return keyStore != null;
    }

    public boolean authenticates() {
        return !users.isEmpty();
    }

    @Override
    public String toString() {
        return "RegistryAccess[tls=" + tls() + ", users=" + users.keySet() + "]";
    }
}
