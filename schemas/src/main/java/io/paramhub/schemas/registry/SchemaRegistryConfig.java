package io.paramhub.schemas.registry;

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
    /** Prefix of URLs that name an in-memory registry scope. */
    public static final String MOCK_URL_PREFIX = "mock://";

    private SchemaRegistryConfig() {}
}
