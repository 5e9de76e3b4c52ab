package io.paramhub.registry;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who may reach the registry's REST API, and how: TLS with the certificate of a PKCS12 key store (none: plain
 * HTTP), and HTTP basic authentication against {@code users}, name to password hash (empty: anyone).
 */
public record RegistryAccess(Path keyStore, String keyStorePassword, Map<String, PasswordHash> users) {

    public RegistryAccess {
        users = Map.copyOf(users);
    }

    /** Plain HTTP, no authentication. */
    public static RegistryAccess open() {
        return new RegistryAccess(null, null, Map.of());
    }

    /**
     * As the constructor, with passwords this process holds anyway (generated ones, a test's), name to
     * password: they are kept as hashes of {@link PasswordHash#MIN_ITERATIONS}, since they are never written.
     */
    public static RegistryAccess withPasswords(
            final Path keyStore, final String keyStorePassword, final Map<String, String> passwords) {
        final Map<String, PasswordHash> users = new LinkedHashMap<>();
        passwords.forEach((name, password) ->
                users.put(name, PasswordHash.of(password.toCharArray(), PasswordHash.MIN_ITERATIONS)));
        return new RegistryAccess(keyStore, keyStorePassword, users);
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
