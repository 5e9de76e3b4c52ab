package io.paramhub.schemas.registry;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/** Names of the client settings, spelled as Confluent's serdes spell them. */
public final class SchemaRegistryConfig {

    /** Comma-separated base URLs of the registry, or {@code mock://SCOPE} for an in-memory one. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    /** Whether the serializer registers schemas it has not seen (default true) or only looks them up. */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    /** {@code USER_INFO} to send {@link #BASIC_AUTH_USER_INFO} as HTTP basic credentials. */
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    /** {@code user:password} for HTTP basic authentication. */
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    /**
     * With {@code auto.register.schemas=false}: write with the id of the subject's latest version instead of
     * looking the record's schema up (ParamHub's serializer requires that version to be the record's schema).
     */
    public static final String USE_LATEST_VERSION = "use.latest.version";
    /** Trust store (of the registry's TLS certificate) for {@code https://} URLs; the JVM's default when unset. */
    public static final String SSL_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    /** Password of {@link #SSL_TRUSTSTORE_LOCATION}. */
    public static final String SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    /** Type of {@link #SSL_TRUSTSTORE_LOCATION}: {@code PKCS12} (default) or {@code JKS}. */
    public static final String SSL_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    /**
     * ParamHub's own setting: an object (compared by identity) that names a set of serdes sharing one registry
     * client, and with it the client's cache of ids and schemas; the client is dropped once no config holds the
     * object. Without it, serdes share one client per URL for the life of the JVM.
     */
    public static final String CLIENT_SCOPE = "paramhub.schema.registry.client.scope";
    /** Prefix of URLs that name an in-memory registry scope. */
    public static final String MOCK_URL_PREFIX = "mock://";

    private SchemaRegistryConfig() {}

    /** Whether serializers with {@code configs} register the schemas they write ({@link #AUTO_REGISTER_SCHEMAS}). */
    public static boolean autoRegisters(final Map<String, ?> configs) {
        return flag(configs, AUTO_REGISTER_SCHEMAS, true);
    }

    /**
     * The boolean setting {@code name} of {@code configs}, a {@code Boolean} or {@code true}/{@code false} in any case;
     * {@code fallback} when absent. Throws Kafka's {@code ConfigException} naming it otherwise.
     */
    public static boolean flag(final Map<String, ?> configs, final String name, final boolean fallback) {
        final Object value = configs.get(name);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean flag) {
            return flag;
        }
        final String text = String.valueOf(value).trim();
        if ("true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text)) {
            return Boolean.parseBoolean(text);
        }
        throw new ConfigException(name, value, "expected true or false");
    }
}
