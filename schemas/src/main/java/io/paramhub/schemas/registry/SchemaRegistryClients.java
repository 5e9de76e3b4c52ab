package io.paramhub.schemas.registry;

import java.util.Collection;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Builds the {@link SchemaRegistryClient} a serde config asks for: {@code schema.registry.url} of
 * {@code mock://SCOPE} gives the in-memory registry shared by everything configured with that scope
 * (as Confluent's {@code MockSchemaRegistry} does), any other URL list an HTTP client shared by every
 * serde configured with the same URLs, credentials and trust store
 * ({@code schema.registry.ssl.truststore.*}), and the same {@link SchemaRegistryConfig#CLIENT_SCOPE} when one is
 * given. A client caches the registry's answers for as long as it lives, so a scope keeps the serdes of one run
 * from trusting ids another run learned from a different registry that answered at the same URL before.
 */
public final class SchemaRegistryClients {

    private static final Map<String, InMemorySchemaRegistryClient> MOCK_SCOPES = new ConcurrentHashMap<>();
    private static final Map<HttpClientKey, HttpSchemaRegistryClient> HTTP_CLIENTS = new ConcurrentHashMap<>();
    /** The clients of each scope, dropped with the scope object once nothing else holds it. */
    private static final Map<Object, Map<HttpClientKey, HttpSchemaRegistryClient>> SCOPED_HTTP_CLIENTS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private static final String USER_INFO = "USER_INFO";

    private SchemaRegistryClients() {}

    /**
     * The client for {@code config}'s {@code schema.registry.url}.
     *
     * @throws ConfigException when the URL is missing or the credentials source is not supported
     */
    public static SchemaRegistryClient fromConfig(final Map<String, ?> config) {
        final String url = registryUrl(config);
        if (url.startsWith(SchemaRegistryConfig.MOCK_URL_PREFIX)) {
            return mockScope(url.substring(SchemaRegistryConfig.MOCK_URL_PREFIX.length()));
        }
        final HttpClientKey key = new HttpClientKey(url, userInfo(config), RegistryTrustStore.fromConfig(config));
        final Object scope = config.get(SchemaRegistryConfig.CLIENT_SCOPE);
        final Map<HttpClientKey, HttpSchemaRegistryClient> clients = scope == null
                ? HTTP_CLIENTS
                : SCOPED_HTTP_CLIENTS.computeIfAbsent(scope, s -> new ConcurrentHashMap<>());
        return clients.computeIfAbsent(
                key,
                k -> new HttpSchemaRegistryClient(
                        k.urls(), HttpSchemaRegistryClient.DEFAULT_TIMEOUT, k.userInfo(), k.trustStore()));
    }

    /** The in-memory registry of {@code scope}, created when first asked for. */
    public static InMemorySchemaRegistryClient mockScope(final String scope) {
        return MOCK_SCOPES.computeIfAbsent(scope, s -> new InMemorySchemaRegistryClient());
    }

    /** Forgets the in-memory registry of {@code scope}; the next use of the scope starts empty. */
    public static void dropScope(final String scope) {
        MOCK_SCOPES.remove(scope);
    }

    private static String registryUrl(final Map<String, ?> config) {
        final Object value = config.get(SchemaRegistryConfig.SCHEMA_REGISTRY_URL);
        final String url = value instanceof Collection<?> urls
                ? urls.stream().map(String::valueOf).collect(Collectors.joining(","))
                : value == null ? "" : String.valueOf(value).trim();
        if (url.isEmpty()) {
            throw new ConfigException("Missing required configuration \"" + SchemaRegistryConfig.SCHEMA_REGISTRY_URL
                    + "\" which has no default value.");
        }
        return url;
    }

    private static String userInfo(final Map<String, ?> config) {
        final Object source = config.get(SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE);
        if (source == null) {
            return null;
        }
        if (!USER_INFO.equals(String.valueOf(source).trim().toUpperCase(Locale.ROOT))) {
            throw new ConfigException(
                    SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, source, "only " + USER_INFO + " is supported");
        }
        final Object userInfo = config.get(SchemaRegistryConfig.BASIC_AUTH_USER_INFO);
        if (userInfo == null || String.valueOf(userInfo).isBlank()) {
            throw new ConfigException("Missing required configuration \"" + SchemaRegistryConfig.BASIC_AUTH_USER_INFO
                    + "\" when " + SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE + " is " + USER_INFO);
        }
        return userInfo instanceof Password password ? password.value() : String.valueOf(userInfo);
    }

    private record HttpClientKey(String urls, String userInfo, RegistryTrustStore trustStore) {
        @Override
        public String toString() {
            return urls;
        }
    }
}
