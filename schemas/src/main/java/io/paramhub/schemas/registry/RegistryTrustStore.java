package io.paramhub.schemas.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The trust store a registry client checks an {@code https://} registry's certificate against:
 * {@code schema.registry.ssl.truststore.location}, {@code .password} and {@code .type} (PKCS12 unless said).
 */
public record RegistryTrustStore(String location, String password, String type) {

    /** The trust store {@code config} names, or null when it names none (the JVM's default trust applies). */
    public static RegistryTrustStore fromConfig(final Map<String, ?> config) {
        final Object location = config.get(SchemaRegistryConfig.SSL_TRUSTSTORE_LOCATION);
        if (location == null || String.valueOf(location).isBlank()) {
            return null;
        }
        final Object password = config.get(SchemaRegistryConfig.SSL_TRUSTSTORE_PASSWORD);
        final Object type = config.get(SchemaRegistryConfig.SSL_TRUSTSTORE_TYPE);
        return new RegistryTrustStore(
                String.valueOf(location).trim(),
                password == null ? null : password instanceof Password p ? p.value() : String.valueOf(password),
                type == null || String.valueOf(type).isBlank()
                        ? "PKCS12"
                        : String.valueOf(type).trim());
    }

    /** A TLS context that trusts the certificates of this store. */
    public SSLContext sslContext() {
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            final KeyStore store = KeyStore.getInstance(type);
            store.load(in, password == null ? null : password.toCharArray());
            final TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (final IOException | GeneralSecurityException e) {
            throw new ConfigException(
                    SchemaRegistryConfig.SSL_TRUSTSTORE_LOCATION,
                    location,
                    "cannot load trust store: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "RegistryTrustStore[" + location + ", " + type + "]";
    }
}
